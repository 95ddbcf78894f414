import CLibWebSockets
import Synchronization
import TransitionCore

/// The sandbox server: one libwebsockets context serving the page over HTTP and the
/// `transition-sandbox.v1` protocol, on one service thread.
///
/// Everything runs on the thread that called `run()` except `requestShutdown()` and the
/// `--threads` hand-off, which touch only `crossThread` (a mutex around the context pointer and
/// the handed-over sockets: lws allows `lws_cancel_service` from any thread, as long as the
/// context is alive). Hence `@unchecked Sendable`.
public final class SandboxServer: @unchecked Sendable {
    public let options: ServerOptions
    let clock = ServerClock()
    let headroom = Int(clws_pre())
    let limits: ConnectionLimits
    let policy: RequestPolicy
    private var native: UnsafeMutablePointer<clws_server>?
    var context: OpaquePointer? { native?.pointee.context }

    private var sessions: [String: Session] = [:]
    private var connections: [ObjectIdentifier: Connection] = [:]
    private var displayLinks: [Int: DisplayLink] = [:]
    private let defaults: SessionSettings
    private let stopRequested = Atomic<Bool>(false)
    private(set) var stopping = false
    private var tearingDown = false
    private var shutdownDeadline = Double.infinity
    private var shutdownTimer: UnsafeMutablePointer<clws_timer>?

    /// Open WebSocket connections across the server group (`--max-connections`).
    let openConnections: ConnectionCounter
    /// Connections waiting for room to write, and the one timer that retries them.
    private var blocked: [ObjectIdentifier: Connection] = [:]
    private var retryTimer: UnsafeMutablePointer<clws_timer>?
    static let retryInterval = 0.02
    /// Once a second, cuts the connections whose output waited too long (`checkWriteStall`).
    private var watchdogTimer: UnsafeMutablePointer<clws_timer>?
    static let watchdogInterval = 1.0
    /// Writes lws had to split despite the room check (should stay 0; see Connection.send).
    var partialWrites = 0

    /// What other threads may touch: the context (nil once destroyed) and the sockets handed
    /// to this server by the listening one.
    private struct CrossThread: @unchecked Sendable {  // the context is used only under the lock
        var context: OpaquePointer?
        var handedOver: [Int32] = []
    }
    private let crossThread = Mutex(CrossThread())

    /// `serve --threads`: the servers accepted connections are dealt to (round robin, this one
    /// included), set once before any `run()`.
    private var peers: [SandboxServer] = []
    private var nextPeer = 0

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

    /// Creates the context and starts listening. Returns once the port is bound. Servers of one
    /// group (`--threads`) share `counter`, so the connection limit holds across them.
    public init(options: ServerOptions, counter: ConnectionCounter = ConnectionCounter()) throws {
        self.options = options
        var defaults = SessionSettings()
        guard SessionSettings.fpsRange.contains(options.fps) else {
            throw StartError.invalidOption("--fps must be in 1…240, got \(options.fps)")
        }
        defaults.fps = options.fps
        self.defaults = defaults
        limits = options.limits
        policy = RequestPolicy(boundHost: options.host, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins)
        openConnections = counter
        clws_set_log_level(LLL_ERR | LLL_WARN)
        let user = Unmanaged.passUnretained(self).toOpaque()
        native = clws_server_create(
            options.host, Int32(options.port), options.webRoot, sandboxSubprotocol, sandboxCallback, httpCallback,
            MemoryLayout<UnsafeRawPointer>.size, options.limits.sendBytes + 64, user, options.pingSeconds,
            options.hangupSeconds, options.handshakeTimeoutSeconds, options.listens ? 1 : 0)
        guard let native else { throw StartError.listenFailed(host: options.host, port: options.port) }
        crossThread.withLock { $0.context = native.pointee.context }
        let watchdog = clws_timer_create(user)!
        watchdogTimer = watchdog
        clws_timer_schedule(native.pointee.context, watchdog, watchdogFired, Int64(Self.watchdogInterval * 1e6))
    }

    deinit {
        if let native { clws_server_destroy(native) }
    }

    /// The bound port (useful with port 0).
    public var port: Int { native.map { Int(clws_server_port($0)) } ?? -1 }

    /// The most WebSocket connections the group accepts at once.
    var maxConnections: Int { limits.maxConnections ?? ConnectionLimits.defaultMaxConnections }

    /// Serves until `requestShutdown()`; then closes every WebSocket with 1001, destroys the
    /// context and returns.
    public func run() {
        guard let context else { return }
        while true {
            lws_service(context, 0)
            if stopping && (connections.isEmpty || clock.now > shutdownDeadline) { break }
        }
        // No more hand-offs or wake-ups from other threads: they see a nil context from now on.
        let leftOver = crossThread.withLock { state -> [Int32] in
            state.context = nil
            defer { state.handedOver.removeAll() }
            return state.handedOver
        }
        leftOver.forEach { close($0) }
        for timer in [shutdownTimer, retryTimer, watchdogTimer].compactMap({ $0 }) {
            clws_timer_cancel(context, timer)
            free(timer)
        }
        shutdownTimer = nil
        retryTimer = nil
        watchdogTimer = nil
        blocked.removeAll()
        displayLinks.removeAll()
        sessions.removeAll()
        tearingDown = true
        if let native { clws_server_destroy(native) }  // CLOSED for every connection still open
        native = nil
        connections.removeAll()
        // Every server of a --threads group holds the group: drop it, or the servers keep each
        // other alive forever (a reference cycle LeakSanitizer reports at exit).
        peers.removeAll()
    }

    /// `serve --threads`: tells each server of the group about the others; the listening one
    /// deals accepted connections across them (round robin, itself included). Call on every
    /// server before `run()`.
    public func shareConnections(with servers: [SandboxServer]) {
        peers = servers
    }

    /// LWS_CALLBACK_FILTER_NETWORK_CONNECTION (service thread). Returns 1 to refuse the socket
    /// (lws closes it), 0 to serve it here; handing it to another thread also answers 1, as
    /// lws closes its own descriptor and the peer serves a duplicate.
    func filterNetworkConnection(_ fd: Int32) -> Int32 {
        if stopping || stopRequested.load(ordering: .relaxed) { return 1 }
        guard !peers.isEmpty else { return 0 }
        let peer = peers[nextPeer % peers.count]
        nextPeer += 1
        guard peer !== self else { return 0 }
        return peer.takeHandOff(fd) ? 1 : 0
    }

    /// Called on the listening thread: queues a duplicate of `fd` for this server's thread and
    /// wakes it. False if this server has stopped (the caller then serves the socket itself).
    private func takeHandOff(_ fd: Int32) -> Bool {
        crossThread.withLock { state in
            guard let context = state.context else { return false }
            let copy = dup(fd)
            guard copy >= 0 else { return false }
            state.handedOver.append(copy)
            lws_cancel_service(context)
            return true
        }
    }

    /// Adopts the sockets handed over, on this server's own service thread. A failed adoption
    /// has already closed the descriptor (lws does), so it is not closed again.
    private func adoptHandedOver() {
        let sockets = crossThread.withLock { state -> [Int32] in
            defer { state.handedOver.removeAll() }
            return state.handedOver
        }
        guard let native else {
            sockets.forEach { close($0) }
            return
        }
        for fd in sockets { _ = clws_server_adopt(native, fd) }
    }

    /// Thread-safe, and safe again during or after teardown: asks `run()` to close every
    /// connection (1001) and return.
    public func requestShutdown() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        crossThread.withLock { state in
            if let context = state.context { lws_cancel_service(context) }
        }
    }

    /// LWS_CALLBACK_EVENT_WAIT_CANCELLED: the loop was woken from another thread.
    func wokenUp() {
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

    // MARK: - Writes waiting for room

    /// A connection found no room for its next message: retry it on the shared tick.
    func writeBlocked(_ connection: Connection) {
        blocked[ObjectIdentifier(connection)] = connection
        guard let context else { return }
        if retryTimer == nil {
            let timer = clws_timer_create(Unmanaged.passUnretained(self).toOpaque())!
            retryTimer = timer
            clws_timer_schedule(context, timer, retryFired, Int64(Self.retryInterval * 1e6))
        }
    }

    fileprivate func retryBlockedWrites() {
        guard let context, let retryTimer else { return }
        for (id, connection) in blocked where !connection.retryBlockedWrite() {
            blocked[id] = nil
        }
        if blocked.isEmpty {
            free(retryTimer)
            self.retryTimer = nil
        } else {
            clws_timer_schedule(context, retryTimer, retryFired, Int64(Self.retryInterval * 1e6))
        }
    }

    fileprivate func watchdog() {
        guard let context, let watchdogTimer else { return }
        let now = clock.now
        for connection in connections.values { connection.checkWriteStall(at: now) }
        clws_timer_schedule(context, watchdogTimer, watchdogFired, Int64(Self.watchdogInterval * 1e6))
    }

    // MARK: - Connections

    func opened(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = connection
        openConnections.add(1)
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

    func closed(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = nil
        blocked[ObjectIdentifier(connection)] = nil
        openConnections.add(-1)
        // While the context is destroyed, nobody is left to tell.
        if !tearingDown { leave(connection) }
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

    /// 128 random bits (the system's CSPRNG), so a session cannot be guessed and joined.
    private func newSessionID() -> String {
        while true {
            var generator = SystemRandomNumberGenerator()
            let id = [generator.next(), generator.next()].map { (word: UInt64) in
                let hex = String(word, radix: 16)
                return String(repeating: "0", count: 16 - hex.count) + hex
            }.joined()
            if sessions[id] == nil { return id }
        }
    }

    // MARK: - Messages

    func handle(_ bytes: [UInt8], from connection: Connection, at received: Double) {
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
                throw WireError(.unknownSession, "no session \(WireError.quoted(id))\(note)")
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

/// The number of open WebSocket connections of a server group, shared by its threads.
public final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    public init() {}
    public var value: Int { count.load(ordering: .relaxed) }
    func add(_ delta: Int) { count.add(delta, ordering: .relaxed) }
}

private func shutdownPoll(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<SandboxServer>.fromOpaque(owner).takeUnretainedValue().pollShutdown()
}

private func watchdogFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<SandboxServer>.fromOpaque(owner).takeUnretainedValue().watchdog()
}

private func retryFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<SandboxServer>.fromOpaque(owner).takeUnretainedValue().retryBlockedWrites()
}
