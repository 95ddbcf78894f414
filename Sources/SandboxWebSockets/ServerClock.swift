import Glibc
import SandboxSession

/// The server's monotonic time, in seconds since the process's first clock was made. The
/// engines' time axis (clients' timestamps are mapped onto it per session). One origin for the
/// whole process: with `--threads N` a frame stamped on the session's thread (`sent`) and the
/// same frame stamped by a viewer's thread (`delivered`, the network lab) must be on one axis —
/// each server had its own origin, a few milliseconds apart, and a viewer on another thread saw
/// its 200 ms link as 199.4 (found by the ThreadSanitizer run, whose threads start slower).
///
/// Read straight from `CLOCK_MONOTONIC` (the vDSO): the frame path reads it a few times a frame,
/// and `ContinuousClock`'s `Duration` arithmetic (128-bit products, `components`) took about
/// 1,300 instructions a frame (callgrind, docs/PERFORMANCE.md "Frame cost").
struct ServerClock {
    private static let origin = ServerClock.read()
    private let start = ServerClock.origin

    var now: Double {
        let time = Self.read()
        return Double(time.tv_sec - start.tv_sec) + Double(time.tv_nsec - start.tv_nsec) * 1e-9
    }

    private static func read() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time
    }
}
