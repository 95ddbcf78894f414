import CLibWebSockets
import Logging
import Synchronization

/// libwebsockets' own log lines (its errors and warnings: a TLS handshake that failed, a bind
/// that did not) routed into swift-log, so `--log-format json` covers them too. lws' emitter is
/// one per process, so is this.
enum LWSLog {
    private static let route = Mutex(LWSLogRoute())

    /// Routes lws' errors and warnings to `logger` (the last call wins; every server of a group
    /// passes the same one).
    static func route(to logger: Logger) {
        route.withLock { (route: inout LWSLogRoute) in route.logger = logger }
        clws_set_log_emit(Int32(LLL_ERR | LLL_WARN), { level, line in
            guard let line else { return }
            var text = String(cString: line)
            while text.last == "\n" || text.last == "\r" { text.removeLast() }
            // lws prefixes each line with its own timestamp and level: "[2026/05/01 12:00:00:1234] E: …".
            if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
                text = String(text[text.index(after: close)...].drop { $0 == " " })
            }
            let logger = LWSLog.route.withLock { (route: inout LWSLogRoute) in route.logger }
            let severity: Logger.Level = Int(level) & Int(LLL_ERR) != 0 ? .error : .warning
            logger?.log(level: severity, "libwebsockets: \(text)")
        })
    }
}

/// Where lws' lines go, under `LWSLog`'s mutex (a type of its own so the TSan suppression can
/// name it: Tests/tsan.supp).
struct LWSLogRoute {
    var logger: Logger?
}
