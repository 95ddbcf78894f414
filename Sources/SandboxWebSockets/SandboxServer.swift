import CLibWebSockets
import Logging
import SandboxSession
import Synchronization

/// One service thread of the sandbox server: a libwebsockets context serving the page over HTTP
/// and the `transition-sandbox` protocols (v2, v1). It decides nothing about sessions: client messages,
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
    /// The latest frame of each session here, encoded when a connection first writes it.
    @exclusivity(unchecked) private var frames: FrameCache
    /// What frames cost this thread, and which sessions a tick advances when they cost too much.
    @exclusivity(unchecked) private var budget = FrameBudget()
    /// `ServerOptions.prebuiltFrameBytes`' message, sent in place of every session's frame.
    private let prebuiltFrame: FrameEncoding?
    /// Frames handed out since the last one timed for the budget (`latestFrame`).
    @exclusivity(unchecked) private var framesSinceTimed = 0
    /// The actions of the message or tick being handled (one buffer, reused).
    @exclusivity(unchecked) var actions: [SessionAction] = []
    @exclusivity(unchecked) var connections: [ConnectionID: Connection] = [:]
    private var nextConnection = 0
    private(set) var lifecycle = ServerLifecycle.serving
    /// Set by any thread (`requestShutdown`); the service thread then starts draining.
    private let stopRequested = Atomic<Bool>(false)
    private lazy var shutdownTimer = LWSTimer { [unowned self] in self.pollShutdown() }
    private lazy var displayClock = DisplayClock(server: self)
    lazy var networkScheduler = NetworkScheduler(server: self)
    lazy var writeRetries = WriteRetries(server: self)
    private lazy var watchdog = Watchdog(server: self)
    /// Writes lws had to split despite the room check (should stay 0; see Connection.write).
    var partialWrites = 0

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
        hub = SessionHub(
            thread: thread, defaults: defaults, network: options.network, headroom: Int(clws_pre()),
            tickPhases: options.tickPhases, maxViewers: options.maxViewers)
        frames = FrameCache(for: hub)
        prebuiltFrame = options.prebuiltFrameBytes.map { FrameEncoding.padding(bytes: $0, headroom: Int(clws_pre())) }
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
            options.host, Int32(options.port), options.webRoot, sandboxSubprotocol, sandboxSubprotocolV1,
            sandboxCallback, httpCallback,
            MemoryLayout<UnsafeRawPointer>.size, options.limits.sendBytes + 64, user, options.pingSeconds,
            options.hangupSeconds, options.handshakeTimeoutSeconds, options.listens ? 1 : 0,
            options.metrics == nil ? 0 : 1, options.tlsCertificate, options.tlsKey)
        guard let native else { throw .listenFailed(host: options.host, port: options.port) }
        crossThread.withLock { $0.context = native.pointee.context }
        watchdog.start(on: native.pointee.context)
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
            if case .draining(let deadline) = lifecycle, connections.isEmpty || clock.now > deadline { break }
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
        shutdownTimer.cancel(on: context)
        writeRetries.stop(on: context)
        watchdog.stop(on: context)
        networkScheduler.stop(on: context)
        displayClock.release()  // before the context goes
        lifecycle = .stopped
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

    var isStopRequested: Bool { lifecycle != .serving || stopRequested.load(ordering: .relaxed) }

    /// LWS_CALLBACK_EVENT_WAIT_CANCELLED: the loop was woken from another thread.
    func wokenUp() {
        adoptHandedOver()
        takeDeliveries()
        shedOverBudget(wakingOthers: false)
        guard lifecycle == .serving, stopRequested.load(ordering: .sequentiallyConsistent), let context else { return }
        lifecycle = .draining(deadline: group.shutdown.deadline ?? clock.now + ShutdownDeadline.seconds)
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
        var remote = RemoteSends()
        // By index: carrying out an action may add more (a join that failed on the way).
        var index = 0
        while index < actions.count {
            let action = actions[index]
            index += 1
            if !remote.continues(with: action) { post(&remote) }
            switch action {
            case let .send(target, message):
                if let metrics { metrics.sent(message) }
                if case .error(let error) = message { errorSent(error, to: target) }
                if target.thread != thread {
                    let watched: String? = if case .sessionEnded(let id) = message { id } else { attaching }
                    remote.add(target, message, watching: watched)
                    continue
                }
                // A broadcast is encoded once for every connection it goes to.
                if shared?.message != message { shared = (message, ServerMessages.encode(message, headroom: headroom)) }
                connections[target]?.enqueue(shared!.encoded, startsFrames: message.startsFrames)
            case .frameDue(let target):
                if target.thread == thread {
                    connections[target]?.frameDue()
                } else if let frame = frame(for: target, now: clock.now),
                    let session = hub.session(of: target)
                {
                    // One copy per thread (it writes its own header into the headroom).
                    if frameCopies[target.thread]?.original !== frame {
                        frameCopies[target.thread] = (frame, frame.copy())
                    }
                    sendFrame(frameCopies[target.thread]!.copy, toViewer: target, of: session)
                }
            case .startTicking(let fps):
                displayClock.start(fps: fps, phases: hub.tickPhases)
            case .stopTicking(let fps):
                displayClock.stop(fps: fps)
            case .register(let session):
                if group.threads > 1 { group.register(session, on: thread) }
            case .unregister(let session):
                frames.forget(session)
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
            case let .charge(target, bytes):
                guard let sender = connections[target] else { continue }
                sender.perform(sender.outbox.chargeFanOut(bytes: bytes, at: clock.now))
            }
        }
        post(&remote)
        actions.removeAll(keepingCapacity: true)
    }

    /// The frame a connection is sent when it can write: its session's latest. One frame in
    /// `timedFrameEvery` is timed on the thread's CPU clock for the frame budget and counts for
    /// them all: that clock is a system call (not in the vDSO), too dear for every frame.
    func latestFrame(for connection: ConnectionID) -> FrameEncoding? {
        if let remote = remoteFrames[connection] { return remote }
        let now = clock.now
        framesSinceTimed += 1
        guard framesSinceTimed >= Self.timedFrameEvery else { return frame(for: connection, now: now) }
        framesSinceTimed = 0
        let cpu = ThreadCPUClock.now
        defer { budget.spent((ThreadCPUClock.now - cpu) * Double(Self.timedFrameEvery), at: now) }
        return frame(for: connection, now: now)
    }
    static let timedFrameEvery = 16

    /// The connection's session's frame: its latest state's, or the prebuilt message
    /// (`ServerOptions.prebuiltFrameBytes`) for a connection that watches a session here.
    private func frame(for connection: ConnectionID, now: Double) -> FrameEncoding? {
        guard let prebuiltFrame else { return frames.frame(for: connection, in: &hub, now: now) }
        return hub.session(of: connection) == nil ? nil : prebuiltFrame
    }

    /// Whether sessions of this rate tick in this phase (a display link skips empty phases).
    func isTicking(fps: Int, phase: Int) -> Bool { hub.isTicking(fps: fps, phase: phase) }

    /// A display link started, stopped or fired: the display clock arms at the earliest.
    func armDisplayClock() { displayClock.arm() }

    /// A display link fired: the sessions the frame budget allows advance; their CPU time is measured.
    func tick(fps: Int, phase: Int, at now: Double) {
        let cpu = ThreadCPUClock.now
        let window = budget.window(fps: fps, phase: phase, sessions: hub.animatingCount(fps: fps, phase: phase))
        let advanced = hub.tick(fps: fps, phase: phase, at: now, window: window, into: &actions)
        carryOut()
        budget.spent(ThreadCPUClock.now - cpu, ticks: advanced, fps: fps, at: now)
    }

    // MARK: - Connections

    func opened(_ socket: WebSocketHandle, version: ProtocolVersion) -> Connection {
        nextConnection += 1
        let connection = Connection(
            id: ConnectionID(thread: thread, number: nextConnection), socket: socket, server: self, version: version,
            at: clock.now)
        connections[connection.id] = connection
        group.openConnections.add(1)
        if lifecycle != .serving {
            connection.close(1001, "server shutting down")
        } else {
            hub.connect(connection.id, session: newSessionID(), version: version, into: &actions)
            carryOut()
        }
        logOpened(connection)
        return connection
    }

    func closed(_ connection: Connection) {
        logClosed(connection)
        connections[connection.id] = nil
        writeRetries.remove(connection.id)
        remoteFrames[connection.id] = nil
        group.openConnections.add(-1)
        // While the context is destroyed, nobody is left to tell.
        guard lifecycle != .stopped else { return }
        hub.disconnect(connection.id, into: &actions)
        carryOut()
    }

    /// One whole message from a connection (`arrived`: when it reached the socket, if its
    /// simulated network held it until `now`).
    func received(_ bytes: [UInt8], binary: Bool, from connection: Connection, at now: Double, arrived: Double? = nil) {
        hub.admitsNewLinks = group.budget.verdict == .within
        let type = hub.receive(bytes, binary: binary, from: connection.id, at: now, arrived: arrived, into: &actions)
        carryOut()
        if let metrics { metrics.received(type, bytes: bytes.count, seconds: clock.now - now) }
    }

    private func newSessionID() -> String {
        SessionIDs.make(prefix: sessionPrefix) { hub.engine(of: $0) != nil || group.host(of: $0) != nil }
    }
}
