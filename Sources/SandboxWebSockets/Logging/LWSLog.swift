import CLibWebSockets
import Logging
import Synchronization

/// libwebsockets' own log lines (its errors and warnings: a TLS handshake that failed, a bind
/// that did not) routed into swift-log, so `--log-format json` covers them too. lws' emitter is
/// one per process, so is this.
///
/// Until `startupEnded()` (the ready line) lws' lines keep their level: a bind or certificate
/// error is the operator's. After it every lws line is about some client (`Missing URI in HTTP
/// request`, `Ran out of header data space`, a failed TLS handshake), so any client could write
/// them at will (35 KB/s of `\r\n\r\n` made 2 MB/s of warnings, through
/// `--log-level warning`). So they are logged at debug, and through the
/// shared `LogBudget` like every other client-caused line (lws does not say which peer: "-").
public enum LWSLog {
    private static let route = Mutex(LWSLogRoute())
    private static let serving = Atomic<Bool>(false)

    /// From now on lws' lines are client-caused: debug, and within `LogBudget.shared`.
    public static func startupEnded() {
        serving.store(true, ordering: .releasing)
    }

    /// Holds lws' lines from now until `release(explained:)`: while a context is created, lws
    /// says a failed bind in three lines ("ERROR on binding fd 5 to port … (-1 98)", "init server
    /// failed", "Failed to create default vhost") that `ListenFailure` says better in one.
    static func hold() {
        route.withLock { (route: inout LWSLogRoute) in route.held = [] }
    }

    /// Logs the held lines: at their level, or at debug when the caller's own message explains
    /// the failure (`test_cli_errors.py`: `test_a_port_in_use_is_said_in_words`, one line).
    static func release(explained: Bool) {
        let (logger, held) = route.withLock { (route: inout LWSLogRoute) in
            defer { route.held = nil }
            return (route.logger, route.held ?? [])
        }
        guard let logger else { return }
        for (level, text) in held { logger.log(level: explained ? .debug : level, "libwebsockets: \(text)") }
    }

    /// Routes lws' errors and warnings to `logger` (the last call wins; every server of a group
    /// passes the same one).
    static func route(to logger: Logger) {
        route.withLock { (route: inout LWSLogRoute) in route.logger = logger }
        clws_set_log_emit(
            Int32(LLL_ERR | LLL_WARN),
            { level, line in
                guard let line else { return }
                var text = String(cString: line)
                while text.last == "\n" || text.last == "\r" { text.removeLast() }
                // lws prefixes each line with its own timestamp and level: "[2026/05/01 12:00:00:1234] E: …".
                if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
                    text = String(text[text.index(after: close)...].drop { $0 == " " })
                }
                let severity: Logger.Level = Int(level) & Int(LLL_ERR) != 0 ? .error : .warning
                let logger = LWSLog.route.withLock { (route: inout LWSLogRoute) -> Logger? in
                    guard route.held == nil else {
                        route.held?.append((severity, text))
                        return nil
                    }
                    return route.logger
                }
                guard let logger else { return }
                if LWSLog.serving.load(ordering: .acquiring) {
                    guard logger.logLevel <= .debug, LogBudget.shared.admit(peer: "-", reason: "lws") else { return }
                    logger.debug("libwebsockets: \(text)")
                } else {
                    logger.log(level: severity, "libwebsockets: \(text)")
                }
            })
    }
}

/// Where lws' lines go, under `LWSLog`'s mutex (a type of its own so the TSan suppression can
/// name it: Tests/tsan.supp).
struct LWSLogRoute {
    var logger: Logger?
    /// Lines held by `LWSLog.hold()`, or nil when lines go straight to `logger`.
    var held: [(Logger.Level, String)]?
}
