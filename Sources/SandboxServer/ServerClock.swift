/// The server's monotonic time, in seconds since the server started. The engines' time axis
/// (clients' timestamps are mapped onto it per session).
struct ServerClock {
    private let start = ContinuousClock.now

    var now: Double { (ContinuousClock.now - start).inSeconds }
}

extension Duration {
    /// The duration as a number of seconds (the tools and the server count time in seconds).
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
