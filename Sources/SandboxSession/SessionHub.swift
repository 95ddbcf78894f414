import TransitionCore

/// The sessions of one service thread as a state machine: client messages, display-link ticks
/// and connections coming and going go in, with the time; `SessionAction`s come out, in the
/// order they must be carried out. No sockets, no clock, no threads: the live server
/// (`SandboxServer`) and the virtual replay (`VirtualSession`) both only execute the actions, so
/// a replay runs the server's logic by construction, and the logic is tested synchronously
/// (`SessionHubTests`).
///
/// Within one batch, messages come before `frameDue`: a connection writes its queued messages
/// before the latest frame, and the virtual replay prints them in that order too.
public struct SessionHub {
    /// The service thread this hub runs on (`ConnectionID.thread` of its own connections).
    public let thread: Int
    /// Settings of a new session (`sandbox serve --fps` among them).
    public let defaults: SessionSettings
    /// The simulated network of a new connection (`sandbox serve --network`).
    public let network: NetworkConditions
    /// `LWS_PRE` for the live server, 0 for text.
    public let headroom: Int
    /// Phases each display link's period is divided into (`serve --tick-phases`). A session
    /// ticks in one phase, the least loaded when it connects (`phaseLoad`), so a thread's sessions are
    /// not all advanced, encoded and sent in one burst at the top of each period: at 1,000
    /// sessions one burst took longer than the jitter bar allows the frames at its end. Each
    /// session still ticks exactly every 1/fps. 1: every session at the top of the period (the
    /// virtual replay, and the tests of tick timing).
    public let tickPhases: Int
    /// Sessions per phase: a new session gets the least loaded (the lowest of equals), so
    /// sessions that end — a connection that goes on to watch another's ends its own — leave
    /// no phase crowded.
    private var phaseLoad: [Int]
    /// Whether another thread hosts a session of this id (a `join` then goes there). Set by a
    /// multi-threaded server; a single thread (and a replay) knows only its own sessions.
    public var hostedElsewhere: (String) -> Bool = { _ in false }

    private var sessions: [String: HubSession] = [:]
    private var connections: [ConnectionID: ConnectionState] = [:]
    /// Viewers served by other threads, watching a session of this one.
    private var remoteViewers: [ConnectionID: String] = [:]
    /// The sessions that animate, by frame rate and then phase (`tickPhases` sets): each
    /// rate's display link runs while one of its sets is not empty.
    private var animating: [Int: [Set<String>]] = [:]

    public init(
        thread: Int = 0, defaults: SessionSettings = SessionSettings(), network: NetworkConditions = .loopback, headroom: Int = 0,
        tickPhases: Int = 1
    ) {
        precondition(tickPhases >= 1, "a display link has at least one phase")
        self.thread = thread
        self.defaults = defaults
        self.network = network
        self.headroom = headroom
        self.tickPhases = tickPhases
        phaseLoad = Array(repeating: 0, count: tickPhases)
    }

    // MARK: - What the executor asks

    /// Sessions on this thread.
    public var sessionCount: Int { sessions.count }

    /// The session a connection drives or watches (here, or on another thread), if any.
    public func session(of connection: ConnectionID) -> String? {
        switch connections[connection]?.role {
        case .driver(let id), .viewer(let id), .remoteViewer(let id): return id
        case .idle, nil: return remoteViewers[connection]
        }
    }

    /// What a connection does now (for logs and metrics); nil for a connection this hub does not know.
    public func role(of connection: ConnectionID) -> ConnectionRole? {
        switch connections[connection]?.role {
        case .driver: return .driver
        case .viewer, .remoteViewer: return .viewer
        case .idle: return .idle
        case nil: return nil
        }
    }

    /// The latest frame of the connection's session here, stamped `now` (s) when first encoded;
    /// encoded once per frame whoever asks. Nil when the connection watches nothing here.
    public mutating func frame(for connection: ConnectionID, now: Double) -> FrameEncoding? {
        // A session watched on another thread is not in `sessions`: nil, as documented.
        guard let id = session(of: connection) else { return nil }
        let headroom = headroom
        return inPlace(id) { $0.encodedFrame(now: now, headroom: headroom) }
    }

    /// Runs `body` on the session stored in the dictionary, in place — for reads too.
    /// `sessions[id]!.x = …` would move the whole session (its engine included) out of the
    /// dictionary and back, and a read `sessions[id]!.x` (or `values[i]`'s getter) copies it
    /// (3.6 KB and a retain of all it holds): a profile at 1,000 sessions found those copies
    /// ahead of the frame encoder.
    private mutating func inPlace<R, E: Error>(_ id: String, _ body: (inout HubSession) throws(E) -> R) throws(E) -> R? {
        guard let index = sessions.index(forKey: id) else { return nil }
        return try body(&sessions.values[index])
    }


    /// A session's whole state (tests compare it before and after a refusal).
    func core(of session: String) -> SessionCore? { sessions[session]?.core }

    /// Whether a session animates (a completion or a rotation: the replay's display link runs).
    public func isAnimating(_ session: String) -> Bool { sessions[session]?.core.isAnimating ?? false }

    /// Whether sessions animate at this rate in this phase (the display link skips empty phases).
    public func isTicking(fps: Int, phase: Int) -> Bool {
        guard let phases = animating[fps], phases.indices.contains(phase) else { return false }
        return !phases[phase].isEmpty
    }

    /// The engine of a session (for the replay's phase and progress).
    public func engine(of session: String) -> InteractiveTransition? { sessions[session]?.core.engine }

    // MARK: - Connections

    /// A client connected: it drives a new session of this id (unique, from the caller).
    public mutating func connect(_ connection: ConnectionID, session id: String, into actions: inout [SessionAction]) {
        let phase = phaseLoad.indices.min { phaseLoad[$0] < phaseLoad[$1] }!
        phaseLoad[phase] += 1
        sessions[id] = HubSession(core: SessionCore(id: id, settings: defaults), driver: connection, phase: phase)
        connections[connection] = ConnectionState(role: .driver(id), network: network)
        actions.append(.register(session: id))
        // The link first: the welcome already crosses the simulated network.
        if network.isActive { actions.append(.setLink(connection, network)) }
        actions.append(.send(connection, .welcome(session: id, settings: defaults)))
        if network.isActive { actions.append(.send(connection, .link(network))) }
        actions.append(.frameDue(connection))
    }

    /// The connection closed: a driver ends its session (its viewers are told), a viewer leaves.
    public mutating func disconnect(_ connection: ConnectionID, into actions: inout [SessionAction]) {
        leave(connection, into: &actions)
        connections[connection] = nil
    }

    // MARK: - Messages

    /// One whole client message, received at `now` (server clock, s). `arrived`: when it
    /// reached the socket, if the connection's simulated link held it until `now`.
    /// Returns the message's type once it parsed (nil when it did not: the reply is an error),
    /// for the server's metrics.
    @discardableResult
    public mutating func receive(
        _ bytes: [UInt8], binary: Bool = false, from connection: ConnectionID, at now: Double, arrived: Double? = nil,
        into actions: inout [SessionAction]
    ) -> ClientMessageType? {
        guard connections[connection] != nil else { return nil }
        var type: ClientMessageType?
        var requestID: RequestID?
        do throws(WireError) {
            guard !binary else { throw WireError(.binary, "binary messages are not part of the protocol; send JSON text") }
            let request = try ClientRequest.parse(bytes)
            type = request.message.type
            requestID = request.id
            let first = actions.count
            try dispatch(request.message, from: connection, at: now, arrived: arrived, into: &actions)
            if let id = request.id { Self.tagReplies(to: connection, with: id, in: &actions, from: first) }
        } catch {
            var error = error
            if error.requestID == nil { error.requestID = requestID }
            actions.append(.send(connection, .error(error)))
        }
        return type
    }

    /// The replies a message with an id caused to its sender carry the id
    /// (`ServerMessage.replying(to:)`); what its viewers are sent does not.
    private static func tagReplies(
        to connection: ConnectionID, with id: RequestID, in actions: inout [SessionAction], from first: Int
    ) {
        for index in first..<actions.count {
            guard case .send(connection, let message) = actions[index], let reply = message.replying(to: id) else { continue }
            actions[index] = .send(connection, reply)
        }
    }

    private mutating func dispatch(
        _ message: ClientMessage, from connection: ConnectionID, at now: Double, arrived: Double?,
        into actions: inout [SessionAction]
    ) throws(WireError) {
        switch message {
        case let .ping(seq, time):
            actions.append(.send(connection, .pong(seq: seq, t: time, serverTime: now * 1000)))
        case .join(let id):
            try join(id, connection, into: &actions)
        case .configure(let message):
            // The connection's own link, from any connection (a viewer watches through its own):
            // validated first, changed only if the rest of the message is accepted too.
            let link = message.has("network") ? try connections[connection]!.network.applying(try message.object("network")) : nil
            let fields = message.removing("network")
            if fields.object.keys.allSatisfy({ $0 == "type" }), let link {
                setLink(link, of: connection, into: &actions)
                return
            }
            let id = try drivenSession(connection)
            let reaction = try sessions[id]!.core.configure(fields)
            if let link { setLink(link, of: connection, into: &actions) }
            let session = sessions[id]!
            for each in session.connections {
                actions.append(.send(each, .configured(session: id, settings: session.core.settings, joined: false)))
            }
            apply(reaction, to: id, into: &actions)
        case .play:
            let id = try drivenSession(connection)
            let reaction = try sessions[id]!.core.play(at: now)
            apply(reaction, to: id, into: &actions)
        case .scene(let setup):
            let id = try drivenSession(connection)
            try spendSceneMessage(connection, at: now)
            let reaction = try sessions[id]!.core.setUpScene(setup)
            apply(reaction, to: id, into: &actions)
        case .orientation(let request):
            let id = try drivenSession(connection)
            try spendSceneMessage(connection, at: now)
            let reaction = try sessions[id]!.core.orient(request, at: now)
            apply(reaction, to: id, into: &actions)
        case .sceneCommand(let command):
            let id = try drivenSession(connection)
            try spendSceneMessage(connection, at: now)
            let reaction = try sessions[id]!.core.run(command, at: now)
            apply(reaction, to: id, into: &actions)
        case .pointer(let pointer):
            let id = try drivenSession(connection)
            try pointer.checkSequence(after: connections[connection]?.lastSeq)
            let reaction = try inPlace(id) { (session) throws(WireError) in
                try session.core.pointer(pointer, receivedAt: now, arrivedAt: arrived)
            }!
            connections[connection]?.lastSeq = pointer.seq
            apply(reaction, to: id, into: &actions)
        }
    }

    /// A connection's new simulated network: the executor holds its traffic under it from now
    /// on, and the connection is told (through the new link).
    private mutating func setLink(_ link: NetworkConditions, of connection: ConnectionID, into actions: inout [SessionAction]) {
        connections[connection]!.network = link
        actions.append(.setLink(connection, link))
        actions.append(.send(connection, .link(link)))
    }

    private mutating func join(_ id: String, _ connection: ConnectionID, into actions: inout [SessionAction]) throws(WireError) {
        switch connections[connection]?.role {
        case .driver(id):
            throw WireError(.invalidField, "'session' is the session this connection already drives")
        case .viewer(id), .remoteViewer(id):
            throw WireError(.invalidField, "'session' is the session this connection already watches")
        default:
            break
        }
        if sessions[id] != nil {
            leave(connection, into: &actions)
            connections[connection]?.role = .viewer(id)
            sessions[id]!.viewers.append(connection)
            actions.append(.send(connection, .configured(session: id, settings: sessions[id]!.core.settings, joined: true)))
            if let scene = sessions[id]!.core.scene { actions.append(.send(connection, .sceneState(scene.report))) }
            actions.append(.frameDue(connection))
        } else if hostedElsewhere(id) {
            leave(connection, into: &actions)
            connections[connection]?.role = .remoteViewer(id)
            actions.append(.watchElsewhere(connection, session: id))
        } else {
            throw WireError(.unknownSession, "no session \(WireError.quoted(id))")
        }
    }

    /// Scene messages a connection may send a second, sustained, and in a burst. Each costs
    /// up to about a millisecond (a scene of 32 controllers composed several times), where a
    /// pointer costs microseconds: the transport's 2,000 messages a second would let one
    /// connection hold a core. A person clicks a few a second; a script sends a handful at once.
    static let sceneMessagesPerSecond = 20.0
    static let sceneMessageBurst = 40.0

    private mutating func spendSceneMessage(_ connection: ConnectionID, at now: Double) throws(WireError) {
        guard var state = connections[connection] else { return }
        let elapsed = max(now - (state.sceneRefilled ?? now), 0)
        state.sceneTokens = min(state.sceneTokens + elapsed * Self.sceneMessagesPerSecond, Self.sceneMessageBurst)
        state.sceneRefilled = now
        guard state.sceneTokens >= 1 else {
            connections[connection] = state
            throw WireError(.sceneRateLimited, "at most \(Int(Self.sceneMessagesPerSecond)) scene messages a second (bursts of \(Int(Self.sceneMessageBurst))); nothing changed")
        }
        state.sceneTokens -= 1
        connections[connection] = state
    }

    private func drivenSession(_ connection: ConnectionID) throws(WireError) -> String {
        guard case .driver(let id) = connections[connection]?.role else {
            throw WireError(.notDriver, "this connection watches a session; only its driver sends configure, pointer, play and the scene's messages")
        }
        return id
    }

    // MARK: - Viewers from other threads

    /// Another thread's connection asks to watch a session of this thread (`watchElsewhere`
    /// there). Answered like a local `join`; if the session has ended meanwhile, with
    /// `unknown-session` (which ends the watch over there).
    public mutating func attachViewer(_ viewer: ConnectionID, to id: String, into actions: inout [SessionAction]) {
        guard let session = sessions[id] else {
            actions.append(.send(viewer, .error(WireError(.unknownSession, "no session \(WireError.quoted(id))"))))
            return
        }
        if let watched = remoteViewers[viewer] { sessions[watched]?.viewers.removeAll { $0 == viewer } }
        remoteViewers[viewer] = id
        sessions[id]!.viewers.append(viewer)
        actions.append(.send(viewer, .configured(session: id, settings: session.core.settings, joined: true)))
        if let scene = session.core.scene { actions.append(.send(viewer, .sceneState(scene.report))) }
        actions.append(.frameDue(viewer))
    }

    /// The other thread's viewer left (closed, or joined something else).
    public mutating func detachViewer(_ viewer: ConnectionID, from id: String) {
        guard remoteViewers[viewer] == id else { return }
        remoteViewers[viewer] = nil
        sessions[id]?.viewers.removeAll { $0 == viewer }
    }

    /// This thread's connection watched a session elsewhere, which ended (or never existed by
    /// the time the join got there): it watches nothing now.
    public mutating func remoteWatchEnded(_ connection: ConnectionID, session id: String) {
        if connections[connection]?.role == .remoteViewer(id) { connections[connection]?.role = .idle }
    }

    /// The session this thread's connection went to watch elsewhere was gone when the executor
    /// looked (it ended in between): answered as a `join` that found nothing.
    public mutating func remoteJoinFailed(_ connection: ConnectionID, session id: String, into actions: inout [SessionAction]) {
        guard connections[connection]?.role == .remoteViewer(id) else { return }
        connections[connection]?.role = .idle
        actions.append(.send(connection, .error(WireError(.unknownSession, "no session \(WireError.quoted(id))"))))
    }

    // MARK: - Ticks

    /// The display link of this frame rate fired at `now` (s) in `phase` (0..<tickPhases):
    /// every session animating at it in that phase advances.
    public mutating func tick(fps: Int, phase: Int = 0, at now: Double, into actions: inout [SessionAction]) {
        guard let phases = animating[fps], phases.indices.contains(phase) else { return }
        let ids = phases[phase]
        // The set is not touched while iterated (a mutation would copy it once per session:
        // quadratic per tick); the sessions that came to rest leave it afterwards.
        var rested: [String] = []
        for id in ids {
            // Every set member is a live session listed under this rate (`apply`, `leave`);
            // checked anyway, so a slip costs a skipped tick, not the process.
            // One lookup per session per tick (`send` changes nothing of the session).
            guard let (reaction, driver, viewers, animates) = inPlace(id, { session in
                (session.core.tick(at: now), session.driver, session.viewers, session.core.isAnimating)
            }) else {
                rested.append(id)
                continue
            }
            send(reaction, of: id, driver: driver, viewers: viewers, into: &actions)
            if !animates { rested.append(id) }
        }
        for id in rested { stopAnimating(id, fps: fps, into: &actions) }
    }

    // MARK: - Inside

    /// Sends a reaction's events and its frame to every connection of the session, and keeps
    /// the session on its display link while it animates.
    private mutating func apply(_ reaction: SessionReaction, to id: String, into actions: inout [SessionAction]) {
        send(reaction, of: id, into: &actions)
        // A session leaves its display link only at a tick that finds it at rest (or when it
        // ends), as CADisplayLink-driven code would: a grab and release between two ticks keeps
        // the link's schedule. A session still listed under another rate (configured to a new
        // fps after resting between two ticks) leaves that one first: it is always listed
        // under at most one rate, the one `ticking` names.
        let (fps, listed, animates, phase) = inPlace(id) { ($0.core.settings.fps, $0.ticking, $0.core.isAnimating, $0.phase) }!
        if let listed, listed != fps { stopAnimating(id, fps: listed, into: &actions) }
        if animates {
            inPlace(id) { $0.ticking = fps }
            if animating[fps] == nil { animating[fps] = Array(repeating: [], count: tickPhases) }
            // Also when the rate runs already: its link plans again (it skips empty phases).
            if animating[fps]![phase].insert(id).inserted, animating[fps]![phase].count == 1 {
                actions.append(.startTicking(fps: fps))
            }
        }
    }

    /// A reaction's events, lifecycle callbacks, scene state and frame, to the driver and then
    /// every viewer.
    private mutating func send(_ reaction: SessionReaction, of id: String, into actions: inout [SessionAction]) {
        // Read in place: a copy of the session would copy its whole engine on every event.
        let (driver, viewers) = inPlace(id) { ($0.driver, $0.viewers) }!
        send(reaction, of: id, driver: driver, viewers: viewers, into: &actions)
    }

    private mutating func send(
        _ reaction: SessionReaction, of id: String, driver: ConnectionID, viewers: [ConnectionID],
        into actions: inout [SessionAction]
    ) {
        func everyone(_ message: ServerMessage) {
            actions.append(.send(driver, message))
            for viewer in viewers { actions.append(.send(viewer, message)) }
        }
        for event in reaction.events { everyone(.transition(event)) }
        for record in reaction.lifecycle { everyone(.lifecycle(record)) }
        if reaction.sceneChanged { everyone(.sceneState(inPlace(id) { $0.core.scene?.report }!)) }
        if reaction.frame {  // every pointer event and tick
            actions.append(.frameDue(driver))
            for viewer in viewers { actions.append(.frameDue(viewer)) }
        }
    }

    private mutating func stopAnimating(_ id: String, fps: Int, into actions: inout [SessionAction]) {
        if sessions[id]?.ticking == fps { sessions[id]?.ticking = nil }
        // Not by the session's phase: it may be gone from `sessions` already (`leave`).
        guard let phase = animating[fps]?.firstIndex(where: { $0.contains(id) }) else { return }
        animating[fps]![phase].remove(id)
        if animating[fps]!.allSatisfy(\.isEmpty) {
            animating[fps] = nil
            actions.append(.stopTicking(fps: fps))
        }
    }

    /// Detaches a connection from what it drives or watches; a driver leaving ends its session.
    private mutating func leave(_ connection: ConnectionID, into actions: inout [SessionAction]) {
        guard let role = connections[connection]?.role else { return }
        connections[connection]?.role = .idle
        switch role {
        case .driver(let id):
            guard let session = sessions[id] else { return }
            // The rate it is listed under, which may not be its current one (see `apply`).
            if let listed = session.ticking { stopAnimating(id, fps: listed, into: &actions) }
            sessions[id] = nil
            phaseLoad[session.phase] -= 1
            actions.append(.unregister(session: id))
            for viewer in session.viewers {
                if remoteViewers.removeValue(forKey: viewer) == nil { connections[viewer]?.role = .idle }
                actions.append(.send(viewer, .sessionEnded(id)))
            }
        case .viewer(let id):
            sessions[id]?.viewers.removeAll { $0 == connection }
        case .remoteViewer(let id):
            actions.append(.stopWatchingElsewhere(connection, session: id))
        case .idle:
            break
        }
    }
}

/// What a connection does, as logs and metrics name it: drives its session, watches another's, or
/// neither (its session ended under it, or its `join` found nothing).
public enum ConnectionRole: String, Sendable, CaseIterable {
    case driver, viewer, idle
}

/// A connection of this thread: what it does, and its last accepted pointer `seq` (strictly
/// increasing per connection, across sessions it drives).
private struct ConnectionState {
    enum Role: Equatable {
        case driver(String)
        case viewer(String)
        case remoteViewer(String)
        case idle
    }
    var role: Role
    /// Its simulated network (`NetworkLink`, carried out by the executor).
    var network: NetworkConditions
    var lastSeq: Int?
    /// The scene-message bucket (`SessionHub.spendSceneMessage`).
    var sceneTokens = SessionHub.sceneMessageBurst
    var sceneRefilled: Double?
}

/// One session: the engine and its state (`SessionCore`), who drives and who watches, and its
/// latest frame's encoding.
private struct HubSession {
    var core: SessionCore
    var driver: ConnectionID
    var viewers: [ConnectionID] = []
    /// The display-link rate this session is listed under in `SessionHub.animating`, if any.
    var ticking: Int?
    /// Its display links' phase (`SessionHub.tickPhases`).
    let phase: Int
    /// The latest frame's encodings (`FrameEncoding`), and when the last full-only one was made.
    private var encoded: FrameEncoding?
    private var lastKeyframe = -Double.infinity

    init(core: SessionCore, driver: ConnectionID, phase: Int) {
        self.core = core
        self.driver = driver
        self.phase = phase
    }

    /// The driver first, then the viewers in the order they joined.
    var connections: [ConnectionID] { [driver] + viewers }

    /// Every state whoever asks first, once; a delta against the frame before it is offered but
    /// at least every `keyframeSeconds` (docs/PROTOCOL.md, "Delta frames").
    mutating func encodedFrame(now: Double, headroom: Int) -> FrameEncoding {
        if let encoded, encoded.number == core.frameNumber { return encoded }
        let snapshot = FrameSnapshot.encode(core, now: now * 1000)
        let encoding = FrameEncoding(snapshot, after: encoded, deltaAllowed: now - lastKeyframe < Self.keyframeSeconds, headroom: headroom)
        if encoding.baseID == nil { lastKeyframe = now }
        encoded = encoding
        return encoding
    }

    /// The longest a session streams deltas without a full frame (server time, s).
    static let keyframeSeconds = 2.0
}
