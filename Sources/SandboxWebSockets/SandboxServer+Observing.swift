import CLibWebSockets
import Logging
import SandboxSession

// What the server tells its operators: one log line per connection opened and closed, per
// refused request or handshake, per error sent (debug); the metrics it counts besides the hot
// path's (`ServerMetrics`); and `GET /metrics` itself.
//
// Opened, closed, refused and error lines are caused by clients, who can cause thousands a
// second: they go through `LogBudget.shared` (a budget per peer address and one for the process)
// with lws' lines, and what is past it is summed up once a second in "log lines suppressed",
// naming the peers that caused most (docs/SECURITY.md).

extension SandboxServer {
    // MARK: - Logs

    func logOpened(_ connection: Connection) {
        guard logger.logLevel <= .info, LogBudget.shared.admit(peer: connection.stats.peer, reason: "opened")
        else { return }
        logger.info(
            "connection opened",
            metadata: [
                "peer": .string(connection.stats.peer),
                "connection": .stringConvertible(connection.id),
                "session": .string(hub.session(of: connection.id) ?? "-"),
                "role": .string(hub.role(of: connection.id)?.rawValue ?? "-"),
            ])
    }

    /// Before the hub forgets the connection: its session and role are the ones it closed with.
    func logClosed(_ connection: Connection) {
        let stats = connection.stats
        metrics?.closed(code: stats.reportedCloseCode)
        guard logger.logLevel <= .info, LogBudget.shared.admit(peer: stats.peer, reason: "closed") else { return }
        var metadata: Logger.Metadata = [
            "peer": .string(stats.peer),
            "connection": .stringConvertible(connection.id),
            "session": .string(hub.session(of: connection.id) ?? "-"),
            "role": .string(hub.role(of: connection.id)?.rawValue ?? "-"),
            "duration_s": .stringConvertible(((clock.now - stats.openedAt) * 1000).rounded() / 1000),
            "close_code": .stringConvertible(stats.reportedCloseCode),
            "bytes_in": .stringConvertible(stats.bytesIn),
            "bytes_out": .stringConvertible(stats.bytesOut),
            "frames_out": .stringConvertible(stats.framesOut),
        ]
        if let by = stats.closedBy { metadata["closed_by"] = .string(by) }
        logger.info("connection closed", metadata: metadata)
    }

    /// A protocol error for a client: counted, and logged at debug level within the log budget
    /// (`test_error_lines_are_budgeted_at_debug`).
    func errorSent(_ error: WireError, to target: ConnectionID) {
        metrics?.error(code: error.code)
        guard logger.logLevel <= .debug,
            LogBudget.shared.admit(peer: connections[target]?.stats.peer ?? "-", reason: "error")
        else { return }
        logger.debug(
            "error sent",
            metadata: [
                "code": .string(error.code),
                "connection": .stringConvertible(target),
                "session": .string(hub.session(of: target) ?? "-"),
                "error": .string(error.message),
            ])
    }

    /// An HTTP request or WebSocket handshake refused before any upgrade. `why` is a short
    /// stable word (also the metric's label); the request's Host and Origin are logged cut to
    /// 64 bytes, as they come from the client.
    func refused(_ request: WebSocketHandle, status: Int, why: String) {
        metrics?.refused(why)
        let peer = request.peerAddress
        guard logger.logLevel <= .info, LogBudget.shared.admit(peer: peer, reason: why) else { return }
        var metadata: Logger.Metadata = [
            "peer": .string(peer), "status": .stringConvertible(status), "why": .string(why),
        ]
        if let host = request.header(WSI_TOKEN_HOST) { metadata["host"] = .string(Self.clipped(host)) }
        if let origin = request.header(WSI_TOKEN_ORIGIN) { metadata["origin"] = .string(Self.clipped(origin)) }
        logger.info("request refused", metadata: metadata)
    }

    /// A client's text for a log line: made visible (`LogText`: control and format characters as
    /// `U+XXXX`), then at most 64 bytes (then "…"), whole characters only.
    static func clipped(_ raw: String) -> String {
        let text = LogText.visible(raw)
        guard text.utf8.count > 64 else { return text }
        var cut = ""
        for character in text {
            if cut.utf8.count + character.utf8.count > 64 { break }
            cut.append(character)
        }
        return cut + "…"
    }

    // MARK: - Metrics

    /// This thread's gauges, once a second (the watchdog): connections by role, sessions; the
    /// log's own counters; and the summary of client-caused lines the budget suppressed.
    func publishCounts() {
        let suppressed = LogBudget.shared.takeSuppressed()
        if suppressed.lines > 0 {
            logger.info(
                "log lines suppressed",
                metadata: [
                    "lines": .stringConvertible(suppressed.lines),
                    "top_peers": .string(suppressed.top.map { "\($0.peer):\($0.lines)" }.joined(separator: ",")),
                    "why": .string(LogBudget.summaryReason),
                ])
        }
        guard let metrics else { return }
        LogStats.publish(to: metrics)
        var roles = [Int](repeating: 0, count: ConnectionRole.allCases.count)
        for id in connections.keys {
            let role = hub.role(of: id) ?? .idle
            roles[ConnectionRole.allCases.firstIndex(of: role)!] += 1
        }
        metrics.publish(thread: thread, roles: roles, sessions: hub.sessionCount)
    }

    /// LWS_CALLBACK_HTTP on the `/metrics` mount, `path` the request's. Returns
    /// -1 when the connection must close. The Host was checked at FILTER_HTTP_CONNECTION; it is
    /// checked again here, as this answer is worth more to a rebinding page than the page is.
    func serveMetrics(_ request: WebSocketHandle, path: String) -> Int32 {
        guard policy.acceptsHost(request.header(WSI_TOKEN_HOST)) else {
            refused(request, status: 403, why: "host")
            request.refuseHTTP(403, "Forbidden: this Host is not allowed (see sandbox serve --allow-host)")
            return -1
        }
        // lws 4.1 passes the whole path here, not what follows the mountpoint.
        let rest = path.hasPrefix("/metrics") ? path.dropFirst("/metrics".count) : Substring(path)
        guard let metrics, rest.isEmpty || rest == "/" else {
            request.refuseHTTP(404, "Not Found")
            return -1
        }
        guard request.isGet else {
            request.refuseHTTP(405, "Method Not Allowed: GET /metrics")
            return -1
        }
        publishCounts()  // this thread's part is fresh; the others' at most a second old
        let body = metrics.render()
        // Headers and body in one write, only when the kernel can take all of it: lws must
        // never hold part of a write (the 4.1.6 livelock, docs/SECURITY.md).
        guard request.sendRoom(for: body.count + 1024, limit: limits.sendBytes) == .fits else {
            request.refuseHTTP(503, "Service Unavailable: try again")
            return -1
        }
        let status = body.withUnsafeBufferPointer {
            clws_http_respond(request.wsi, 200, "text/plain; version=0.0.4; charset=utf-8", $0.baseAddress, $0.count)
        }
        return status == 0 ? 0 : -1
    }

    // MARK: - Session ids

    /// `NODE-` with `--node`, so a balancer can route a `join` to the process hosting the session.
    var sessionPrefix: String { options.node.map { $0 + "-" } ?? "" }
}
