/// The server's monotonic time, in seconds since the server started. The engines' time axis
/// (clients' timestamps are mapped onto it per session).
struct ServerClock {
    private let start = ContinuousClock.now

    var now: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
