import SandboxSession

/// The server's monotonic time, in seconds since the process's first clock was made. The
/// engines' time axis (clients' timestamps are mapped onto it per session). One origin for the
/// whole process: with `--threads N` a frame stamped on the session's thread (`sent`) and the
/// same frame stamped by a viewer's thread (`delivered`, the network lab) must be on one axis —
/// each server had its own origin, a few milliseconds apart, and a viewer on another thread saw
/// its 200 ms link as 199.4 (found by the ThreadSanitizer run, whose threads start slower).
struct ServerClock {
    private static let origin = ContinuousClock.now
    private let start = ServerClock.origin

    var now: Double { (ContinuousClock.now - start).inSeconds }
}
