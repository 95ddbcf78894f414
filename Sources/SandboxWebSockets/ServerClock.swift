import SandboxSession

/// The server's monotonic time, in seconds since the server started. The engines' time axis
/// (clients' timestamps are mapped onto it per session).
struct ServerClock {
    private let start = ContinuousClock.now

    var now: Double { (ContinuousClock.now - start).inSeconds }
}
