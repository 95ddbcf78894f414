import CLibWebSockets
import HeapModule
import Logging
import Synchronization
import SandboxSession

/// One service thread of the sandbox server: a libwebsockets context serving the page over HTTP
/// and the `transition-sandbox.v1` protocol. It decides nothing about sessions: client messages,
/// ticks and connections go to its `SessionHub`, and it carries out the actions that come back
/// (`carryOut`). A `ServerGroup` owns one or more of these, their threads and their shutdown.
///
/// Everything runs on the thread that called `run()` except what touches `crossThread` (a
/// mutex around the context pointer, the sockets handed over by the listening thread and the
/// deliveries of other threads: lws allows `lws_cancel_service` from any thread while the
/// context is alive). Hence `@unchecked Sendable`.
public final class SandboxServer: @unchecked Sendable {
    let options: ServerOptions
    let thread: Int
    let clock = ServerClock()
    let headroom = Int(clws_pre())
    let limits: ConnectionLimits
    let policy: RequestPolicy
    /// Connections, refusals and errors (SandboxServer+Observing.swift); metrics nil with --no-metrics.
    let logger: Logger
    let metrics: ServerMetrics?
    unowned let group: ServerGroup
    private(set) var native: UnsafeMutablePointer<clws_server>?
    var context: OpaquePointer? { native?.pointee.context }

    // The service thread's state; the per-message path touches it (no exclusivity bookkeeping).
    @exclusivity(unchecked) var hub: SessionHub
    /// The actions of the message or tick being handled (one buffer, reused).
    @exclusivity(unchecked) private var actions: [SessionAction] = []
    @exclusivity(unchecked) var connections: [ConnectionID: Connection] = [:]
    private var nextConnection = 0
    private var displayLinks: [Int: DisplayLink] = [:]
    /// One timer for every display link of this thread, armed at the earliest `due`: one
    /// descriptor whatever the rates clients pick (a timer per rate let 9 connections at 9
    /// rates push the 9th onto lws' own timer, which spins below a millisecond: the hostile
    /// review held a core at 100 %).
    private lazy var displayClock = WakeTimer { [unowned self] in self.displayClockFired() }
    private var firingDisplayLinks = false
    private let stopRequested = Atomic<Bool>(false)
    private(set) var stopping = false
    private var tearingDown = false
    private var shutdownDeadline = Double.infinity
    private lazy var shutdownTimer = LWSTimer { [unowned self] in self.pollShutdown() }

    /// Connections waiting for room to write, and the one timer that retries them.
    private var blocked: [ConnectionID: Connection] = [:]
    private lazy var retryTimer = LWSTimer { [unowned self] in self.retryBlockedWrites() }
    static let retryInterval = 0.02
    /// Once a second, cuts the connections whose output waited too long (`checkWriteStall`).
    private lazy var watchdogTimer = LWSTimer { [unowned self] in self.watchdog() }
    static let watchdogInterval = 1.0
    /// Writes lws had to split despite the room check (should stay 0; see Connection.send).
    var partialWrites = 0

    /// When each connection's simulated network delivers next, earliest first, and the one
    /// timer that fires at the earliest (`networkHolds`, `deliverNetwork`). A firing visits only
    /// the connections due, not every one that holds something (the hostile review: 1,500 quiet
    /// connections through 2 s cost 0.87 of a core when each firing walked them all).
    private var networkQueue = Heap<NetworkDue>()
    private lazy var networkTimer = LWSTimer { [unowned self] in self.deliverNetwork() }
    private var networkTimerDue = Double.infinity

    /// What other threads may touch (`SandboxServer+Watching.swift`).
    let crossThread = Mutex(CrossThread())
    /// The latest frame of the session another thread hosts, for each viewer here watching it.
    var remoteFrames: [ConnectionID: FrameEncoding] = [:]

    /// Creates the context (listening only if `options.listens`) and returns once it is bound.
    init(options: ServerOptions, thread: Int, group: ServerGroup) throws(ServerGroup.StartError) {
        guard let defaults = SessionSettings(fps: options.fps) else {
            throw .invalidOption("--fps must be in \(SessionSettings.fpsRange), got \(options.fps)")
        }
        self.options = options
        self.thread = thread
        self.group = group
        hub = SessionHub(thread: thread, defaults: defaults, network: options.network, headroom: Int(clws_pre()), tickPhases: options.tickPhases)
        limits = options.limits
        policy = RequestPolicy(
            boundHost: options.host, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins,
            secure: options.tlsCertificate != nil)
        var logger = options.logger
        if group.threads > 1 { logger[metadataKey: "thread"] = "\(thread)" }
        self.logger = logger
        metrics = options.metrics
        LWSLog.route(to: options.logger)
        let user = Unmanaged.passUnretained(self).toOpaque()
        native = clws_server_create(
            options.host, Int32(options.port), options.webRoot, sandboxSubprotocol, sandboxCallback, httpCallback,
            MemoryLayout<UnsafeRawPointer>.size, options.limits.sendBytes + 64, user, options.pingSeconds,
            options.hangupSeconds, options.handshakeTimeoutSeconds, options.listens ? 1 : 0,
            options.metrics == nil ? 0 : 1, options.tlsCertificate, options.tlsKey)
        guard let native else { throw .listenFailed(host: options.host, port: options.port) }
        crossThread.withLock { $0.context = native.pointee.context }
        watchdogTimer.schedule(on: native.pointee.context, after: Self.watchdogInterval)
    }

    deinit {
        if let native { clws_server_destroy(native) }
    }

    /// The bound port (useful with port 0).
    var port: Int { native.map { Int(clws_server_port($0)) } ?? -1 }

    /// Serves until `requestShutdown()`; then closes every WebSocket with 1001, destroys the
    /// context and returns.
    func run() {
        guard let context else { return }
        while true {
            lws_service(context, 0)
            if stopping && (connections.isEmpty || clock.now > shutdownDeadline) { break }
        }
        // No more hand-offs, deliveries or wake-ups from other threads: they see a nil context.
        let leftOver = crossThread.withLock { state -> [Int32] in
            state.context = nil
            state.deliveries.removeAll()
            state.frames.removeAll()
            defer { state.handedOver.removeAll() }
            return state.handedOver
        }
        leftOver.forEach { close($0) }
        for timer in [shutdownTimer, retryTimer, watchdogTimer, networkTimer] { timer.cancel(on: context) }
        networkQueue = Heap()
        for link in displayLinks.values { link.stop() }
        displayLinks.removeAll()
        displayClock.release()  // before the context goes
        blocked.removeAll()
        tearingDown = true
        if let native { clws_server_destroy(native) }  // CLOSED for every connection still open
        native = nil
        connections.removeAll()
    }

    /// Thread-safe, and safe again during or after teardown: asks `run()` to close every
    /// connection (1001) and return.
    func requestShutdown() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        crossThread.withLock { state in
            if let context = state.context { lws_cancel_service(context) }
        }
    }

    var isStopRequested: Bool { stopping || stopRequested.load(ordering: .relaxed) }

    /// LWS_CALLBACK_EVENT_WAIT_CANCELLED: the loop was woken from another thread.
    func wokenUp() {
        adoptHandedOver()
        takeDeliveries()
        guard !stopping, stopRequested.load(ordering: .sequentiallyConsistent), let context else { return }
        stopping = true
        shutdownDeadline = clock.now + 2
        for connection in connections.values { connection.close(1001, "server shutting down") }
        // Keep the loop turning while the closes go out, even if nothing else happens.
        shutdownTimer.schedule(on: context, after: 0.05)
    }

    private func pollShutdown() {
        if let context { shutdownTimer.schedule(on: context, after: 0.05) }
    }

    // MARK: - Carrying out the hub's actions

    /// Does what the hub asked, in order. `attaching`: the session a remote viewer asked to
    /// join, when these actions answer that (an error then ends the watch over there).
    func carryOut(attaching: String? = nil) {
        var shared: (message: ServerMessage, encoded: EncodedMessage)?
        var frameCopies: [Int: (original: FrameEncoding, copy: FrameEncoding)] = [:]
        // By index: carrying out an action may add more (a join that failed on the way).
        var index = 0
        while index < actions.count {
            let action = actions[index]
            index += 1
            switch action {
            case let .send(target, message):
                if let metrics { metrics.sent(message) }
                if case .error(let error) = message { errorSent(error, to: target) }
                if target.thread != thread {
                    let watched: String? = if case .sessionEnded(let id) = message { id } else { attaching }
                    send(message, toViewer: target, watching: watched)
                    continue
                }
                // A broadcast is encoded once for every connection it goes to.
                if shared?.message != message { shared = (message, ServerMessages.encode(message, headroom: headroom)) }
                connections[target]?.enqueue(shared!.encoded, startsFrames: message.startsFrames)
            case .frameDue(let target):
                if target.thread == thread {
                    connections[target]?.frameDue()
                } else if let frame = hub.frame(for: target, now: clock.now), let session = hub.session(of: target) {
                    // One copy per thread (it writes its own header into the headroom).
                    if frameCopies[target.thread]?.original !== frame { frameCopies[target.thread] = (frame, frame.copy()) }
                    sendFrame(frameCopies[target.thread]!.copy, toViewer: target, of: session)
                }
            case .startTicking(let fps):
                displayLink(fps: fps).start()
            case .stopTicking(let fps):
                displayLinks[fps]?.stop()
                displayLinks[fps] = nil  // the display clock scans the links that run
            case .register(let session):
                if group.threads > 1 { group.register(session, on: thread) }
            case .unregister(let session):
                if group.threads > 1 { group.unregister(session) }
            case let .lookUp(viewer, session, id):
                if group.threads > 1, let host = group.host(of: session), host != thread {
                    hub.watchElsewhere(viewer, session: session, into: &actions)
                } else {
                    hub.lookUpFailed(viewer, session: session, requestID: id, into: &actions)
                }
            case let .watchElsewhere(viewer, session):
                watchElsewhere(viewer, session)
            case let .stopWatchingElsewhere(viewer, session):
                stopWatchingElsewhere(viewer, session)
            case let .setLink(target, conditions):
                connections[target]?.setLink(conditions)
            }
        }
        actions.removeAll(keepingCapacity: true)
    }

    /// The frame a connection is sent when it can write: its session's latest.
    func latestFrame(for connection: Connection) -> FrameEncoding? {
        if let remote = remoteFrames[connection.id] { return remote }
        return hub.frame(for: connection.id, now: clock.now)
    }

    /// Whether sessions of this rate tick in this phase (a display link skips empty phases).
    func isTicking(fps: Int, phase: Int) -> Bool { hub.isTicking(fps: fps, phase: phase) }

    /// Arms the display clock at the earliest due link (or disarms it).
    func armDisplayClock() {
        guard !firingDisplayLinks, let context else { return }
        if let next = displayLinks.values.lazy.compactMap(\.due).min() {
            displayClock.schedule(on: context, after: next - clock.now)
        } else {
            displayClock.cancel(on: context)
        }
    }

    private func displayClockFired() {
        firingDisplayLinks = true
        let now = clock.now
        // 50 µs of tolerance: the clock is armed in whole microseconds, truncated.
        for link in displayLinks.values where (link.due ?? .infinity) <= now + 50e-6 { link.fire(at: now) }
        firingDisplayLinks = false
        armDisplayClock()
    }

    private func displayLink(fps: Int) -> DisplayLink {
        if let link = displayLinks[fps] { return link }
        let link = DisplayLink(fps: fps, phases: hub.tickPhases, server: self)
        displayLinks[fps] = link
        return link
    }

    /// A viewer of another thread asks to watch a session of this one.
    func attachRemote(_ viewer: ConnectionID, _ session: String) {
        hub.attachViewer(viewer, to: session, into: &actions)
        carryOut(attaching: session)
    }

    /// `.watchElsewhere` found the session gone (or its thread stopped) since the hub asked.
    func remoteJoinFailed(_ viewer: ConnectionID, _ session: String) {
        hub.remoteJoinFailed(viewer, session: session, into: &actions)
    }

    /// A display link fired.
    func tick(fps: Int, phase: Int, at now: Double) {
        hub.tick(fps: fps, phase: phase, at: now, into: &actions)
        carryOut()
    }

    // MARK: - Connections

    func opened(_ socket: WebSocketHandle) -> Connection {
        nextConnection += 1
        let connection = Connection(id: ConnectionID(thread: thread, number: nextConnection), socket: socket, server: self, at: clock.now)
        connections[connection.id] = connection
        group.openConnections.add(1)
        if stopping {
            connection.close(1001, "server shutting down")
        } else {
            hub.connect(connection.id, session: newSessionID(), into: &actions)
            carryOut()
        }
        logOpened(connection)
        return connection
    }

    func closed(_ connection: Connection) {
        logClosed(connection)
        connections[connection.id] = nil
        blocked[connection.id] = nil
        remoteFrames[connection.id] = nil
        group.openConnections.add(-1)
        // While the context is destroyed, nobody is left to tell.
        guard !tearingDown else { return }
        hub.disconnect(connection.id, into: &actions)
        carryOut()
    }

    /// One whole message from a connection (`arrived`: when it reached the socket, if its
    /// simulated network held it until `now`).
    func received(_ bytes: [UInt8], binary: Bool, from connection: Connection, at now: Double, arrived: Double? = nil) {
        let type = hub.receive(bytes, binary: binary, from: connection.id, at: now, arrived: arrived, into: &actions)
        carryOut()
        if let metrics { metrics.received(type, bytes: bytes.count, seconds: clock.now - now) }
    }

    // MARK: - The simulated network

    /// A connection's link holds something: the network timer fires by its next due time.
    /// One entry per connection and due time; an entry made stale by an earlier one is skipped.
    func networkHolds(_ connection: Connection) {
        guard let due = connection.networkDue else { return }
        if let scheduled = connection.networkScheduled, scheduled <= due { return }
        connection.networkScheduled = due
        networkQueue.insert(NetworkDue(due: due, connection: connection.id))
        armNetworkTimer()
    }

    private func armNetworkTimer() {
        guard let first = networkQueue.min, first.due < networkTimerDue, let context else { return }
        networkTimerDue = first.due
        networkTimer.schedule(on: context, after: first.due - clock.now)
    }

    /// The network timer: the connections due deliver, each is queued again for its next due
    /// time, and the timer is set for the earliest (one timer per service thread).
    private func deliverNetwork() {
        networkTimerDue = .infinity
        let now = clock.now
        while let first = networkQueue.min, first.due <= now {
            networkQueue.removeMin()
            guard let connection = connections[first.connection], connection.networkScheduled == first.due else { continue }
            connection.networkScheduled = nil
            connection.deliverNetwork(at: now)
            networkHolds(connection)
        }
        armNetworkTimer()
    }

    /// 128 random bits (the system's CSPRNG), so a session cannot be guessed and joined.
    private func newSessionID() -> String {
        while true {
            var generator = SystemRandomNumberGenerator()
            let id = sessionPrefix + [generator.next(), generator.next()].map { (word: UInt64) in
                let hex = String(word, radix: 16)
                return String(repeating: "0", count: 16 - hex.count) + hex
            }.joined()
            if hub.engine(of: id) == nil, group.host(of: id) == nil { return id }
        }
    }

    // MARK: - Writes waiting for room

    /// A connection found no room for its next message: retry it on the shared tick.
    func writeBlocked(_ connection: Connection) {
        blocked[connection.id] = connection
        if let context, !retryTimer.isScheduled { retryTimer.schedule(on: context, after: Self.retryInterval) }
    }

    private func retryBlockedWrites() {
        for (id, connection) in blocked where !connection.retryBlockedWrite() {
            blocked[id] = nil
        }
        if let context, !blocked.isEmpty { retryTimer.schedule(on: context, after: Self.retryInterval) }
    }

    private func watchdog() {
        guard let context else { return }
        let now = clock.now
        for connection in connections.values { connection.checkWriteStall(at: now) }
        publishCounts()
        watchdogTimer.schedule(on: context, after: Self.watchdogInterval)
    }
}

/// A connection's next delivery, ordered by time (`SandboxServer.networkQueue`).
struct NetworkDue: Comparable {
    let due: Double
    let connection: ConnectionID

    static func < (a: NetworkDue, b: NetworkDue) -> Bool { a.due < b.due }
    static func == (a: NetworkDue, b: NetworkDue) -> Bool { a.due == b.due && a.connection == b.connection }
}
