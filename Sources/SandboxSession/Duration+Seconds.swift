extension Duration {
    /// The duration as a number of seconds (the tools and the server count time in seconds).
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
