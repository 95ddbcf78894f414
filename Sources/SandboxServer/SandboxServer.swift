import CLibWebSockets
import Synchronization
import TransitionCore

/// The sandbox server: one libwebsockets context serving the page over HTTP and the
/// `transition-sandbox.v1` protocol, on one service thread.
///
/// Everything but `requestShutdown()` runs on the thread that called `run()`; that one call
/// touches only an atomic flag and `lws_cancel_service`, which libwebsockets allows from any
/// thread. Hence `@unchecked Sendable`.
public final class SandboxServer: @unchecked Sendable {
    public let options: ServerOptions
    let clock = ServerClock()
    let headroom = Int(clws_pre())
    private var native: UnsafeMutablePointer<clws_server>?
    var context: OpaquePointer? { native?.pointee.context }

    private var sessions: [String: Session] = [:]
    private var connections: [ObjectIdentifier: Connection] = [:]
    private var displayLinks: [Int: DisplayLink] = [:]
    private let defaults: SessionSettings
    private let stopRequested = Atomic<Bool>(false)
    private var stopping = false
    private var shutdownTimer: UnsafeMutablePointer<clws_timer>?

    /// `serve --threads`: the servers accepted connections are dealt to (round robin, this one
    /// included), set once before any `run()`; and the sockets handed to this one, waiting for
    /// its service thread.
    private var peers: [SandboxServer] = []
    private var nextPeer = 0
    private let handedOver = Mutex<[Int32]>([])

    public enum StartError: Error, CustomStringConvertible {
        case invalidOption(String)
        case listenFailed(host: String, port: Int)
        public var description: String {
            switch self {
            case .invalidOption(let message): return message
            case let .listenFailed(host, port): return "could not listen on \(host):\(port)"
            }
        }
    }

    /// Creates the context and starts listening. Returns once the port is bound.
    public init(options: ServerOptions) throws {
        self.options = options
        var defaults = SessionSettings()
        guard SessionSettings.fpsRange.contains(options.fps) else {
            throw StartError.invalidOption("--fps must be in 1…240, got \(options.fps)")
        }
        defaults.fps = options.fps
        self.defaults = defaults
        clws_set_log_level(LLL_ERR | LLL_WARN)
        let user = Unmanaged.passUnretained(self).toOpaque()
        native = clws_server_create(
            options.host, Int32(options.port), options.webRoot, sandboxSubprotocol, sandboxCallback, httpCallback,
            MemoryLayout<UnsafeRawPointer>.size, user, options.pingSeconds, options.hangupSeconds,
            options.handshakeTimeoutSeconds, options.listens ? 1 : 0)
        guard native != nil else { throw StartError.listenFailed(host: options.host, port: options.port) }
    }

    deinit {
        if let native { clws_server_destroy(native) }
    }

    /// The bound port (useful with port 0).
    public var port: Int { native.map { Int(clws_server_port($0)) } ?? -1 }

    /// Serves until `requestShutdown()`; then closes every WebSocket with 1001 and returns.
    public func run() {
        guard let context else { return }
        while true {
            lws_service(context, 0)
            if stopping && (connections.isEmpty || clock.now > shutdownDeadline) { break }
        }
        if let shutdownTimer {
            clws_timer_cancel(context, shutdownTimer)
            free(shutdownTimer)
        }
        displayLinks.removeAll()
        sessions.removeAll()
        connections.removeAll()
        if let native { clws_server_destroy(native) }
        native = nil
    }

    /// `serve --threads`: tells each server of the group about the others; the listening one
    /// deals accepted connections across them (round robin, itself included). Call on every
    /// server before `run()`. A viewer can join only the sessions of the server its connection
    /// landed on.
    public func shareConnections(with servers: [SandboxServer]) {
        peers = servers
    }

    /// LWS_CALLBACK_FILTER_NETWORK_CONNECTION (service thread): keep the socket (false) or hand
    /// a duplicate to the next peer's thread (true: lws closes its own descriptor).
    fileprivate func handOff(_ fd: Int32) -> Bool {
        guard !peers.isEmpty else { return false }
        let peer = peers[nextPeer % peers.count]
        nextPeer += 1
        guard peer !== self else { return false }
        let copy = dup(fd)
        guard copy >= 0 else { return false }
        peer.handedOver.withLock { $0.append(copy) }
        if let peerContext = peer.context { lws_cancel_service(peerContext) }
        return true
    }

    /// Adopts the sockets handed over, on this server's own service thread.
    private func adoptHandedOver() {
        let sockets = handedOver.withLock { queue -> [Int32] in
            defer { queue.removeAll() }
            return queue
        }
        for fd in sockets where native.map({ clws_server_adopt($0, fd) }) != 0 {
            close(fd)
        }
    }

    /// Thread-safe: asks `run()` to close every connection (1001) and return.
    public func requestShutdown() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        if let context { lws_cancel_service(context) }
    }

    private var shutdownDeadline = Double.infinity

    /// LWS_CALLBACK_EVENT_WAIT_CANCELLED: the loop was woken from another thread.
    fileprivate func wokenUp() {
        adoptHandedOver()
        guard !stopping, stopRequested.load(ordering: .sequentiallyConsistent), let context else { return }
        stopping = true
        shutdownDeadline = clock.now + 2
        for connection in connections.values { connection.close(1001, "server shutting down") }
        // Keep the loop turning while the closes go out, even if nothing else happens.
        let timer = clws_timer_create(Unmanaged.passUnretained(self).toOpaque())!
        shutdownTimer = timer
        clws_timer_schedule(context, timer, shutdownPoll, 50_000)
    }

    fileprivate func pollShutdown() {
        guard let context, let shutdownTimer else { return }
        clws_timer_schedule(context, shutdownTimer, shutdownPoll, 50_000)
    }

    func displayLink(fps: Int) -> DisplayLink {
        if let link = displayLinks[fps] { return link }
        let link = DisplayLink(fps: fps, server: self)
        displayLinks[fps] = link
        return link
    }

    // MARK: - Connections

    fileprivate func acceptsOrigin(_ wsi: OpaquePointer) -> Bool {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = clws_header(wsi, WSI_TOKEN_ORIGIN, &buffer, Int32(buffer.count))
        if length < 0 { return true }  // scripts send no Origin
        let origin = String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if options.allowedOrigins.contains(origin) { return true }
        var host = [CChar](repeating: 0, count: 512)
        let hostLength = clws_header(wsi, WSI_TOKEN_HOST, &host, Int32(host.count))
        guard hostLength > 0 else { return false }
        let hostName = String(decoding: host[0..<Int(hostLength)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return origin == "http://\(hostName)"
    }

    fileprivate func opened(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = connection
        if stopping {
            connection.close(1001, "server shutting down")
            return
        }
        let session = Session(id: newSessionID(), settings: defaults, server: self)
        session.driver = connection
        connection.session = session
        connection.isDriver = true
        sessions[session.id] = session
        connection.enqueue(ServerMessages.welcome(session.core, headroom: headroom))
        session.frameChanged()
    }

    fileprivate func closed(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = nil
        leave(connection)
    }

    /// Detaches a connection from its session; a driver leaving ends the session.
    private func leave(_ connection: Connection) {
        guard let session = connection.session else { return }
        connection.session = nil
        if connection.isDriver {
            connection.isDriver = false
            sessions[session.id] = nil
            displayLinks[session.settings.fps]?.remove(session)
            for viewer in session.viewers {
                viewer.session = nil
                viewer.enqueue(ServerMessages.sessionEnded(session.id, headroom: headroom))
            }
        } else {
            session.removeViewer(connection)
        }
    }

    private func newSessionID() -> String {
        while true {
            let id = String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 16)
            if sessions[id] == nil { return id }
        }
    }

    // MARK: - Messages

    func handle(_ bytes: [UInt8], from connection: Connection) {
        let received = clock.now
        do {
            try dispatch(try ClientMessage.parse(bytes), from: connection, receivedAt: received)
        } catch {
            connection.enqueue(ServerMessages.error(error, headroom: headroom))
        }
    }

    private func dispatch(_ message: ClientMessage, from connection: Connection, receivedAt received: Double) throws(WireError) {
        switch message {
        case let .ping(seq, time):
            connection.enqueue(ServerMessages.pong(seq: seq, time: time, serverTime: received * 1000, headroom: headroom))
        case .join(let id):
            guard let target = sessions[id] else {
                let note = peers.isEmpty ? "" : " on this connection's service thread (the server runs \(peers.count); a viewer can join only sessions of its own thread)"
                throw WireError(.unknownSession, "no session '\(id)'\(note)")
            }
            guard target !== connection.session else {
                throw WireError(.invalidField, "'session' is the session this connection already \(connection.isDriver ? "drives" : "watches")")
            }
            leave(connection)
            target.addViewer(connection)
            connection.session = target
            connection.enqueue(ServerMessages.configured(target.core, joined: true, headroom: headroom))
            connection.frameDue()
        case .configure(let fields):
            let session = try drivenSession(connection)
            try session.configure(fields)
            for each in session.connections {
                each.enqueue(ServerMessages.configured(session.core, joined: false, headroom: headroom))
            }
        case .play:
            try drivenSession(connection).play(at: received)
        case .pointer(let pointer):
            let session = try drivenSession(connection)
            try pointer.checkSequence(after: connection.lastSeq)
            try session.pointer(pointer, receivedAt: received)
            connection.lastSeq = pointer.seq
        }
    }

    private func drivenSession(_ connection: Connection) throws(WireError) -> Session {
        guard connection.isDriver, let session = connection.session else {
            throw WireError(.notDriver, "this connection watches a session; only its driver sends configure, pointer and play")
        }
        return session
    }
}

// MARK: - The libwebsockets callback

private func shutdownPoll(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<SandboxServer>.fromOpaque(owner).takeUnretainedValue().pollShutdown()
}

/// Protocol 0: lws' own HTTP handler serves the page; this only adds the accept hand-off.
private func httpCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    if reason == LWS_CALLBACK_FILTER_NETWORK_CONNECTION, let wsi, let context = lws_get_context(wsi),
       let owner = lws_context_user(context) {
        let server = Unmanaged<SandboxServer>.fromOpaque(owner).takeUnretainedValue()
        return server.handOff(clws_filter_fd(input)) ? 1 : 0
    }
    return lws_callback_http_dummy(wsi, reason, user, input, length)
}

private func sandboxCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    let server = Unmanaged<SandboxServer>.fromOpaque(owner).takeUnretainedValue()
    // The per-connection slot lws allocates holds our retained Connection.
    let slot = user?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    let connection = slot?.pointee.map { Unmanaged<Connection>.fromOpaque($0).takeUnretainedValue() }

    switch reason {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return server.acceptsOrigin(wsi) ? 0 : 1
    case LWS_CALLBACK_ESTABLISHED:
        guard let slot else { return -1 }
        let created = Connection(wsi: wsi, server: server)
        slot.pointee = Unmanaged.passRetained(created).toOpaque()
        server.opened(created)
    case LWS_CALLBACK_RECEIVE:
        return connection?.receive(input, length) ?? -1
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return connection?.writable() ?? -1
    case LWS_CALLBACK_CLOSED:
        // Also called for connections refused by the filter: those have no Connection.
        if let slot, let pointer = slot.pointee {
            slot.pointee = nil
            let closing = Unmanaged<Connection>.fromOpaque(pointer)
            server.closed(closing.takeUnretainedValue())
            closing.release()
        }
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        server.wokenUp()
    default:
        // Being the "default" protocol, this callback also receives the plain HTTP connections
        // that serve the page: lws' own handler serves the mounted files and keeps the
        // connection alive between requests (without it, a second file on one keep-alive
        // connection is cut short).
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    return 0
}
