import CLibWebSockets
import SandboxSession

// The libwebsockets callbacks of the server: the only place its C events enter Swift.

/// Protocol 0 ("http"): accepted sockets (the `--threads` hand-off), the raw sockets lws
/// would make of a `CONNECT` request, and the display links' timerfds; lws' own handler does
/// the rest.
func httpCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    switch reason {
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        guard let server = server(of: wsi) else { return 0 }
        let fd = clws_filter_fd(input)
        if server.refusedAtAccept(fd) { return 1 }
        return server.filterNetworkConnection(fd)
    case LWS_CALLBACK_RAW_ADOPT, LWS_CALLBACK_RAW_RX:
        // lws 4.1 turns a `CONNECT host:port` request into a raw socket bound to protocol 0,
        // with no timeout: a proxy tunnel nobody asked for. Refuse it (lws closes the socket).
        if reason == LWS_CALLBACK_RAW_ADOPT, let wsi, let server = server(of: wsi) {
            server.refused(WebSocketHandle(wsi: wsi), status: 0, why: "connect")
        }
        return -1
    case LWS_CALLBACK_RAW_RX_FILE:
        // Only the display links' timerfds are adopted as files (`WakeTimer`).
        if let wsi { WakeTimer.expired(wsi) }
        return 0
    case LWS_CALLBACK_RAW_CLOSE_FILE:
        if let wsi { WakeTimer.closed(wsi) }
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}

/// The sandbox protocol, marked "default": it also receives the plain HTTP requests for the page.
func sandboxCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let server = server(of: wsi) else { return 0 }
    // Protocol 1's name, hidden for one upgrade (`preferNewest`), is back once lws has bound one.
    if let native = server.native, native.pointee.v1_first != 0 { clws_server_restore_v1(native) }
    // The per-connection slot lws allocates holds our retained Connection.
    let slot = user?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    let connection = slot?.pointee.map { Unmanaged<Connection>.fromOpaque($0).takeUnretainedValue() }

    switch reason {
    case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
        // A plain HTTP request (the page): the Host must be allowed (DNS rebinding).
        let request = WebSocketHandle(wsi: wsi)
        guard server.policy.acceptsHost(request.header(WSI_TOKEN_HOST)) else {
            return refuse(
                request, 403, "Forbidden: this Host is not allowed (see sandbox serve --allow-host)", server,
                why: "host")
        }
        return 0
    case LWS_CALLBACK_HTTP:
        // Only the /metrics mount reaches here (every other path is a file of the page).
        let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
        return server.serveMetrics(WebSocketHandle(wsi: wsi), path: path)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        connection?.stats.clientCloses(Int(clws_close_code(input, length)))
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return confirmUpgrade(wsi, to: input, server: server)
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        // Checked at the upgrade already; a second look costs nothing.
        let request = WebSocketHandle(wsi: wsi)
        guard server.policy.acceptsOrigin(request.header(WSI_TOKEN_ORIGIN), host: request.header(WSI_TOKEN_HOST)) else {
            server.refused(request, status: 403, why: "origin")
            return 1
        }
        return 0
    case LWS_CALLBACK_ESTABLISHED:
        guard let slot else { return -1 }
        let socket = WebSocketHandle(wsi: wsi)
        // Counted before the "connection opened" line, which tests wait for (test_edge_bounds.py).
        server.group.peers.opened(socket.peerAddress)
        // lws bound one of our two subprotocols (or the default, protocol 1).
        let version = ProtocolVersion(subprotocol: String(cString: clws_protocol_name(wsi))) ?? .v1
        let created = server.opened(socket, version: version)
        slot.pointee = Unmanaged.passRetained(created).toOpaque()
    case LWS_CALLBACK_RECEIVE:
        return connection?.receive(input, length) ?? -1
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return connection?.writable() ?? -1
    case LWS_CALLBACK_CLOSED:
        // Also called for connections refused by the filter: those have no Connection.
        if let slot, let pointer = slot.pointee {
            slot.pointee = nil
            let closing = Unmanaged<Connection>.fromOpaque(pointer)
            server.group.peers.closed(closing.takeUnretainedValue().stats.peer)
            server.closed(closing.takeUnretainedValue())
            closing.release()
        }
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        server.wokenUp()
    case LWS_CALLBACK_RAW_ADOPT, LWS_CALLBACK_RAW_RX:
        return -1  // see httpCallback
    default:
        // Being the "default" protocol, this callback also receives the plain HTTP connections
        // that serve the page: lws' own handler serves the mounted files and keeps the
        // connection alive between requests (without it, a second file on one keep-alive
        // connection is cut short).
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    return 0
}

/// LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: only WebSocket, from an allowed Host and Origin, below the
/// connection limits (all and per address). A refusal answers with an HTTP status (returns 1), before any
/// upgrade. With `--threads`, upgrades completing at once on different threads may each pass a limit
/// (at most one per other thread over it), as each is counted when established.
private func confirmUpgrade(_ wsi: OpaquePointer, to input: UnsafeMutableRawPointer?, server: SandboxServer) -> Int32 {
    let request = WebSocketHandle(wsi: wsi)
    let upgrade = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
    guard upgrade.lowercased() == "websocket" else {
        // lws 4.1 would answer `Upgrade: h2c` with 101 and speak HTTP/2 to it.
        return refuse(request, 403, "Forbidden: only WebSocket upgrades are served", server, why: "upgrade")
    }
    let host = request.header(WSI_TOKEN_HOST)
    guard server.policy.acceptsHost(host) else {
        return refuse(
            request, 403, "Forbidden: this Host is not allowed (see sandbox serve --allow-host)", server, why: "host")
    }
    guard server.policy.acceptsOrigin(request.header(WSI_TOKEN_ORIGIN), host: host) else {
        return refuse(
            request, 403, "Forbidden: this Origin is not allowed (see sandbox serve --allow-origin)", server,
            why: "origin")
    }
    guard server.lifecycle == .serving else {
        return refuse(request, 503, "Service Unavailable: shutting down", server, why: "stopping")
    }
    guard server.group.openConnections.value < server.group.maxConnections else {
        return refuse(request, 503, "Service Unavailable: too many connections", server, why: "capacity")
    }
    guard server.group.peers.mayOpen(request.peerAddress) else {
        return refuse(
            request, 503, "Service Unavailable: too many connections from this address", server,
            why: PeerLimits.Refusal.connections.rawValue)
    }
    return preferNewest(request, server: server)
}

/// The subprotocol (docs/PROTOCOL.md, "Versions"): the newest the client offers, wherever it lists
/// it; none offered: protocol 1. Only names we do not speak: 400 with the names we do (lws would
/// close the connection without a word). Held by test_protocol_versions.py.
private func preferNewest(_ request: WebSocketHandle, server: SandboxServer) -> Int32 {
    let offered = request.header(WSI_TOKEN_PROTOCOL)
    switch ProtocolVersion.negotiate(offered) {
    case .unsupported:
        return refuse(
            request, 400,
            "Bad Request: no supported subprotocol; offer \(sandboxSubprotocol) or \(sandboxSubprotocolV1)",
            server, why: "subprotocol")
    case .serve(.v2):
        // lws takes the first name it knows: hide protocol 1's until it has bound this upgrade.
        if let native = server.native { clws_server_hide_v1(native) }
        return 0
    case .serve(.v1):
        return 0
    }
}

/// Logs and counts the refusal (`why`: a short stable word), then answers `status`.
private func refuse(_ request: WebSocketHandle, _ status: Int, _ message: String, _ server: SandboxServer, why: String)
    -> Int32
{
    server.refused(request, status: status, why: why)
    request.refuseHTTP(status, message)
    return 1
}

private func server(of wsi: OpaquePointer?) -> SandboxServer? {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return nil }
    return Unmanaged<SandboxServer>.fromOpaque(owner).takeUnretainedValue()
}
