extension Duration {
    /// The duration as a number of seconds (the tools and the server count time in seconds).
    public var inSeconds: Double {
        // `components` once: each read divides the 128-bit count again (callgrind: a clock read
        // was a tenth of a pointer message's instructions on the server).
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
