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
public struct SessionHub: Equatable {
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
    var phaseLoad: [Int]
    /// Viewers a session takes at most, on any thread (`serve --max-viewers`): a `join` past it
    /// is refused with `too-many-viewers` and changes nothing (`SessionHubFanOutTests`).
    public let maxViewers: Int
    /// 32: a class watching one demonstration, with room; docs/SECURITY.md "Viewer fan-out".
    public static let defaultMaxViewers = 32

    var sessions: [String: HubSession] = [:]
    var connections: [ConnectionID: ConnectionState] = [:]
    /// Viewers served by other threads, watching a session of this one.
    var remoteViewers: [ConnectionID: String] = [:]
    /// The sessions that animate, by frame rate and then phase (`tickPhases` sets): each
    /// rate's display link runs while one of its sets is not empty.
    var animating: [Int: [Set<String>]] = [:]
    var predictionTables = PredictionTables()  // the thread's table cache and build budget
    /// Whether a connection without a simulated network may get one: false while the process
    /// is past its byte budget's soft mark (`ProcessBudget`, set by the executor before each
    /// `receive`); `configure {network}` is then refused with `over-budget` and changes nothing
    /// (`OutboxBudgetTests.newLinksRefusedOverBudget`).
    public var admitsNewLinks = true

    public init(
        thread: Int = 0, defaults: SessionSettings = SessionSettings(), network: NetworkConditions = .loopback,
        headroom: Int = 0,
        tickPhases: Int = 1, maxViewers: Int = SessionHub.defaultMaxViewers
    ) {
        precondition(tickPhases >= 1, "a display link has at least one phase")
        precondition(maxViewers >= 0, "a session takes no viewers or some")
        self.maxViewers = maxViewers
        self.thread = thread
        self.defaults = defaults
        self.network = network
        self.headroom = headroom
        self.tickPhases = tickPhases
        phaseLoad = Array(repeating: 0, count: tickPhases)
    }

    // MARK: - Connections

    /// A client connected: it drives a new session of this id (unique, from the caller); `welcome`
    /// tells it the protocol `version` it negotiated.
    public mutating func connect(
        _ connection: ConnectionID, session id: String, version: ProtocolVersion = .v2,
        into actions: inout [SessionAction]
    ) {
        let phase = phaseLoad.indices.min { phaseLoad[$0] < phaseLoad[$1] }!
        phaseLoad[phase] += 1
        sessions[id] = HubSession(core: SessionCore(id: id, settings: defaults), driver: connection, phase: phase)
        connections[connection] = ConnectionState(role: .driver(id), network: network)
        actions.append(.register(session: id))
        // The link first: the welcome already crosses the simulated network.
        if network.isActive { actions.append(.setLink(connection, network)) }
        actions.append(.send(connection, .welcome(session: id, settings: defaults, protocol: version)))
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
            guard !binary else {
                throw WireError(.binary, "binary messages are not part of the protocol; send JSON text")
            }
            let request = try ClientRequest.parse(bytes)
            type = request.message.type
            requestID = request.id
            let first = actions.count
            try dispatch(request, from: connection, at: now, arrived: arrived, into: &actions)
            if let id = request.id { Self.tagReplies(to: connection, with: id, in: &actions, from: first) }
            chargeFanOut(of: bytes.count, from: connection, in: &actions, from: first)
        } catch {
            var error = error
            if error.requestID == nil { error.requestID = requestID }
            actions.append(.send(connection, .error(error)))
        }
        return type
    }

    /// The replies a message with an id caused to its sender carry the id
    /// (`ServerMessage.replying(to:)`); what its viewers are sent does not.
    static func tagReplies(
        to connection: ConnectionID, with id: RequestID, in actions: inout [SessionAction], from first: Int
    ) {
        for index in first..<actions.count {
            guard case .send(connection, let message) = actions[index], let reply = message.replying(to: id) else {
                continue
            }
            actions[index] = .send(connection, reply)
        }
    }

    mutating func dispatch(
        _ request: ClientRequest, from connection: ConnectionID, at now: Double, arrived: Double?,
        into actions: inout [SessionAction]
    ) throws(WireError) {
        switch request.message {
        case let .ping(seq, time):
            actions.append(.send(connection, .pong(seq: seq, t: time, serverTime: now * 1000)))
        case .join(let id):
            try join(id, connection, requestID: request.id, into: &actions)
        case .configure(let message):
            // The connection's own link, from any connection (a viewer watches through its own):
            // validated first, changed only if the rest of the message is accepted too.
            let link =
                message.has("network")
                ? try connections[connection]!.network.applying(try message.object("network")) : nil
            if let link, link.isActive, !admitsNewLinks, !connections[connection]!.network.isActive {
                throw WireError(.overBudget, "the server holds too much for its clients to start a network link now")
            }
            let prediction = try Self.predictionSetting(message)
            let fields = message.removing("network").removing("prediction")
            if fields.object.keys.allSatisfy({ $0 == "type" }), link != nil || prediction != nil {
                if let link { setLink(link, of: connection, into: &actions) }
                if let prediction {
                    connections[connection]!.prediction = prediction
                    sendPrediction(to: connection, at: now, into: &actions)
                }
                return
            }
            let id = try drivenSession(connection)
            let reaction = try sessions[id]!.core.configure(fields)
            if let link { setLink(link, of: connection, into: &actions) }
            if let prediction { connections[connection]!.prediction = prediction }
            let session = sessions[id]!
            for each in session.connections {
                actions.append(.send(each, .configured(session: id, settings: session.core.settings, joined: false)))
            }
            if connections[connection]!.prediction || prediction != nil {
                sendPrediction(to: connection, at: now, into: &actions)
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
        case .sheet(let request):
            let id = try drivenSession(connection)
            try spendSceneMessage(connection, at: now)
            apply(try sessions[id]!.core.selectDetent(request, at: now), to: id, into: &actions)
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
            // Through the index: `connections[connection]?.lastSeq = …` allocates the dictionary's
            // modify coroutines' frames on every pointer message (heaptrack; `make alloc-count`;
            // `SessionHubSequenceTests` holds that it is still recorded).
            if let index = connections.index(forKey: connection) { connections.values[index].lastSeq = pointer.seq }
            apply(reaction, to: id, into: &actions)
        }
    }

    /// A connection's new simulated network: the executor holds its traffic under it from now
    /// on, and the connection is told (through the new link).
    mutating func setLink(_ link: NetworkConditions, of connection: ConnectionID, into actions: inout [SessionAction]) {
        connections[connection]!.network = link
        actions.append(.setLink(connection, link))
        actions.append(.send(connection, .link(link)))
    }

    /// Scene messages a connection may send a second, sustained, and in a burst. Each costs
    /// up to about a millisecond (a scene of 32 controllers composed several times), where a
    /// pointer costs microseconds: the transport's 2,000 messages a second would let one
    /// connection hold a core. A person clicks a few a second; a script sends a handful at once.
    static let sceneMessagesPerSecond = 20.0
    static let sceneMessageBurst = 40.0

    mutating func spendSceneMessage(_ connection: ConnectionID, at now: Double) throws(WireError) {
        guard var state = connections[connection] else { return }
        let elapsed = max(now - (state.sceneRefilled ?? now), 0)
        state.sceneTokens = min(state.sceneTokens + elapsed * Self.sceneMessagesPerSecond, Self.sceneMessageBurst)
        state.sceneRefilled = now
        guard state.sceneTokens >= 1 else {
            connections[connection] = state
            throw WireError(
                .sceneRateLimited,
                "at most \(Int(Self.sceneMessagesPerSecond)) scene messages a second (bursts of \(Int(Self.sceneMessageBurst))); nothing changed"
            )
        }
        state.sceneTokens -= 1
        connections[connection] = state
    }

    func drivenSession(_ connection: ConnectionID) throws(WireError) -> String {
        guard case .driver(let id) = connections[connection]?.role else {
            throw WireError(
                .notDriver,
                "this connection watches a session; only its driver sends configure, pointer, play and the scene's messages"
            )
        }
        return id
    }
}
