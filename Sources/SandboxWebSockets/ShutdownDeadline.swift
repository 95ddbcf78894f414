import Synchronization

/// The one deadline of a shutdown, `seconds` after the first request (SIGTERM): every thread's
/// connections have until then to answer their 1001, and the log queue until then to drain
/// (`sandbox serve` flushes it for `secondsLeft`). Both used to wait in turn (2 s of drain for
/// peers that never answer, then 1 s of flush for a reader of stderr that stopped: 3.0 s); now
/// SIGTERM exits `seconds` after the signal plus the teardown, whatever clients and the reader
/// of stderr do. Held by `test_logs.py`'s
/// `test_sigterm_with_stderr_unread_and_peers_that_never_close_exits_within_the_deadline`.
public final class ShutdownDeadline: Sendable {
    public static let seconds = 1.0
    private let clock = ServerClock()
    private let requestedAt = Mutex<Double?>(nil)

    /// Marks the first request; later ones change nothing.
    func start() {
        let now = clock.now
        requestedAt.withLock { (requestedAt: inout Double?) in
            if requestedAt == nil { requestedAt = now }
        }
    }

    /// On the server clock; nil before any request.
    var deadline: Double? {
        requestedAt.withLock { (requestedAt: inout Double?) in requestedAt }.map { $0 + Self.seconds }
    }

    /// What is left until the deadline (`seconds` when no shutdown was requested, e.g. a bind error).
    public var secondsLeft: Double {
        guard let deadline else { return Self.seconds }
        return max(0, deadline - clock.now)
    }
}
