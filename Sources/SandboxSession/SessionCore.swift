import TransitionCore

/// What a session is apart from its connections and its clock: the settings, the engine, the
/// frame counter, the acknowledged input, and the mapping of a client's clock onto the
/// engine's. The live server (`Session`) and the virtual one (`VirtualSession`, for headless
/// replays) share it, so a script replayed in-process takes exactly the server's code path.
struct SessionCore: Equatable {
    let id: String
    private(set) var settings: SessionSettings
    var engine: InteractiveTransition
    /// Frame counter, +1 per new state; the first frame (after `welcome`) is 1.
    private(set) var frameNumber = 1
    /// The highest pointer `seq` applied, and when (server ms) it was received.
    private(set) var ack: Int?
    private(set) var ackReceived: Double?
    /// When (server ms) that pointer reached the socket, if a simulated link held it (then
    /// `ackReceived` is when the link let it through); nil without a hold.
    private(set) var ackArrived: Double?
    /// Client clock (s) + offset = engine time (s); anchored when a gesture starts.
    var clockOffset: Double?
    /// The scene, once the client sent `scene`; nil: the configured transition alone (v1).
    /// Reading it copies it: the per-frame paths use `hasScene` and `sceneBox`.
    var scene: SceneSession? {
        get { sceneBox?.session }
        set { sceneBox = newValue.map(SceneSessionBox.init) }
    }
    /// The scene behind one reference (copy on write, `updateScene`). Inline it made the session
    /// 3.6 KB, and a session is copied whole more often than the optimiser promises — passing it
    /// to the encoder, `scene != nil` — once per tick and per frame of every session with or
    /// without a scene (a profile at 1,000 sessions: 4.5 % of the server in `memmove`).
    var sceneBox: SceneSessionBox?
    /// Whether there is a scene (a pointer test, no copy).
    var hasScene: Bool { sceneBox != nil }
    /// Pointers acknowledged but kept off the engine until they lift: down while a scene
    /// had nothing for a pan to drive, outside an edge swipe's band, or on a running
    /// completion that is not interruptible.
    var heldPointers: Set<Int> = []
    /// The pointer the engine follows (its first down), so a rotation that replaces the engine
    /// under it can hold it instead.
    var enginePointer: Int?
    /// How the scene's last transition ended, while the fresh engine armed after it is idle:
    /// the frames still say `finished`/`cancelled` (with progress 1 or 0) until the next one
    /// begins, as without a scene.
    var lastOutcome: TransitionPhase?

    /// Whether the display link must run for this session: a completion, or a rotation.
    var isAnimating: Bool { engine.phase.isAnimating || isRotating || sceneBox?.session.isSettlingDetent == true }

    /// `scene?.rotation != nil` without the copies it compiles to (a profile found a scene
    /// session copied per tick of every session).
    private var isRotating: Bool { sceneBox?.session.isRotating == true }

    /// The phase and progress frames report (see `lastOutcome`).
    var framePhase: TransitionPhase { engine.phase == .idle ? lastOutcome ?? .idle : engine.phase }
    var frameProgress: Double {
        engine.phase == .idle && lastOutcome == .finished ? 1 : engine.progress
    }

    init(id: String, settings: SessionSettings) {
        self.id = id
        self.settings = settings
        // The server's defaults are validated at startup; a failure here is a programming error.
        engine = try! InteractiveTransition(configuration: settings.configuration)
    }

    /// A new configuration starts a new engine; answered by a fresh frame.
    mutating func configure(_ fields: MessageFields) throws(WireError) -> SessionReaction {
        let next = try settings.applying(fields)
        try checkAtRest("configure it")
        if let plan = sceneBox?.session.plan {
            // In a scene the operation decides the kind, direction and container.
            engine = try engine(for: plan, settings: next, systemGesture: sceneBox!.session.systemGesture)
        } else {
            // Validated by applying(_:), so this cannot fail.
            engine = try! InteractiveTransition(configuration: next.configuration)
        }
        settings = next
        clockOffset = nil
        return counted(SessionReaction(frame: true))
    }

    /// A pointer that is down (even before its pan begins) belongs to the current engine: a
    /// new one would not know it, and its next move would be refused. And a running
    /// transition finishes first.
    func checkAtRest(_ what: String) throws(WireError) {
        guard engine.phase.isAtRest, !engine.isPointerDown, heldPointers.isEmpty else {
            let down = engine.isPointerDown || !heldPointers.isEmpty
            throw WireError(
                .busy,
                "the transition is \(engine.phase.rawValue)\(down ? " with a pointer down" : ""); \(what) when it rests"
            )
        }
        if isRotating {
            throw WireError(.busy, "the interface is rotating; \(what) when it rests")
        }
        if isMovingDetent { throw WireError(.busy, "the sheet is moving between its detents; \(what) when it rests") }
    }

    /// Whether a pointer goes to the engine: in a scene, not when nothing is armed, not an
    /// edge swipe's down outside its band, not a grab of a completion that is not interruptible.
    func engineTakes(_ message: PointerMessage) -> Bool {
        // The cheap tests first: `guard let scene` ahead of them copied the whole scene
        // session (3.6 KB) for every pointer event, moves included (a profile).
        guard message.phase == .down, !engine.isPointerDown else { return true }
        return sceneBox?.session.engineTakes(message, engineAnimating: engine.phase.isAnimating) ?? true
    }

    /// A down that misses the band of the edge swipe armed (if one is).
    func outsideEdgeBand(_ message: PointerMessage) -> Bool {
        sceneBox?.session.outsideEdgeBand(message) == true
    }

    /// A held pointer's events: acknowledged, nothing moves.
    mutating func hold(_ message: PointerMessage, receivedAt received: Double, arrivedAt arrived: Double?)
        throws(WireError) -> SessionReaction
    {
        counted(try held(message, receivedAt: received, arrivedAt: arrived))
    }

    /// `hold` before it is counted (`drive`'s callers count once).
    private mutating func held(_ message: PointerMessage, receivedAt received: Double, arrivedAt arrived: Double?)
        throws(WireError) -> SessionReaction
    {
        switch message.phase {
        case .down:
            if heldPointers.contains(message.pointerID) {
                throw WireError(.pointerAlreadyDown, "pointer \(message.pointerID) is already down", seq: message.seq)
            }
            guard heldPointers.count < 10 else {
                throw WireError(.tooManyPointers, "at most 10 pointers may be down", seq: message.seq)
            }
            heldPointers.insert(message.pointerID)
        case .move:
            break
        case .up, .cancel:
            heldPointers.remove(message.pointerID)
        }
        ack = message.seq
        ackReceived = received * 1000
        ackArrived = arrived.map { $0 * 1000 }
        return SessionReaction(frame: true)
    }

    /// How far ahead of its arrival a pointer's time may map, in seconds. Within a gesture the
    /// client's clock runs the engine's (see `clockOffset(for:receivedAt:)`), so a client's
    /// time can put events ahead of the server's clock; a real client's never are by much (its
    /// events leave in order, after the down that anchored the clock; only a down held up in
    /// the network makes the ones after it map ahead, by that delay). Unbounded, one `up` at
    /// t = 1e300 started a completion 1e297 s ahead: ticks before it are ignored, so the
    /// session stayed `finishing` for good and every `configure` was `busy`. Clamped (the anchor
    /// moves), a release completes at most this plus `TransitionConfiguration.longestAnimation`
    /// (+ one tick) after it arrives.
    static let maximumLead = 10.0

    /// `received` is the server's clock in seconds.
    /// `arrived`: when it reached the socket, if a simulated link held it until `received`.
    mutating func pointer(_ message: PointerMessage, receivedAt received: Double, arrivedAt arrived: Double? = nil)
        throws(WireError) -> SessionReaction
    {
        armForDownBesideSheet(message)
        if hasScene, let reaction = try contentSwipe(message, receivedAt: received, arrivedAt: arrived) {
            return reaction
        }
        if message.phase == .down, outsideEdgeBand(message), !engine.isPointerDown, engine.phase.isAtRest,
            heldPointers.isEmpty, hasScene, updateScene({ $0.armDismissalInsteadOfPop() })
        {
            resetEngine()
            clockOffset = nil
        }
        if heldPointers.contains(message.pointerID) || !engineTakes(message) {
            return try hold(message, receivedAt: received, arrivedAt: arrived)
        }
        return counted(try drive(message, receivedAt: received, arrivedAt: arrived))
    }

    /// The engine's part of a pointer event the engine takes: the client's clock mapped onto
    /// the engine's, the event handled and acknowledged, and what the scene makes of it (not yet
    /// `counted`). A refused event changes nothing.
    mutating func drive(_ message: PointerMessage, receivedAt received: Double, arrivedAt arrived: Double?)
        throws(WireError) -> SessionReaction
    {
        var offset = clockOffset(for: message, receivedAt: received)
        // A down that anchors the clock maps to `received` itself. Any other event mapping more
        // than `maximumLead` ahead moves the anchor back so that it maps exactly that far: the
        // gesture's own spacing (and velocity) from there on is kept, and a client whose down
        // was held up (a network stall, a hung page) can still release — refusing it would
        // leave the pointer down for good.
        let clientTime = Self.onTimeGrid(message.time / 1000)
        let lead = clientTime + offset - received
        if lead > Self.maximumLead { offset = Self.onTimeGrid(offset - (lead - Self.maximumLead)) }
        let mapped = clientTime + offset
        let time = max(mapped, engine.time)
        let event = PointerEvent(message.phase, x: message.x, y: message.y, time: time, pointerID: message.pointerID)
        var handedOver: [TransitionEvent] = []
        switch detentPointer(event, message: message) {
        case .notSheet: break
        case .hold:
            return try held(message, receivedAt: received, arrivedAt: arrived)
        case .moved(let reaction):
            (clockOffset, ack, ackReceived) = (offset, message.seq, received * 1000)
            ackArrived = arrived.map { $0 * 1000 }
            return reaction
        case .handOver(let down):
            handedOver = (try? engine.handle(down))?.events ?? []
            enginePointer = message.pointerID
        }
        var reaction: SessionReaction
        do {
            reaction = SessionReaction(try engine.handle(event))
        } catch {
            throw WireError(error, seq: message.seq)
        }
        reaction.events = handedOver + reaction.events
        clockOffset = offset  // only once the event is accepted: a refused one changes nothing
        ack = message.seq
        ackReceived = received * 1000
        ackArrived = arrived.map { $0 * 1000 }
        sceneFollows(&reaction, pointer: message.pointerID, at: received)
        if message.phase == .down, engine.isPointerDown, enginePointer == nil { enginePointer = message.pointerID }
        if message.phase == .up || message.phase == .cancel, message.pointerID == enginePointer { enginePointer = nil }
        return reaction
    }

    /// Runs the whole transition without a pan (a tap that presents), from the server's clock.
    /// In a scene: the armed operation, played (a tap on the button that presents).
    mutating func play(at now: Double) throws(WireError) -> SessionReaction {
        if let scene {
            try checkAtRest("play it")
            guard let armed = scene.armed else {
                throw WireError(
                    .nothingArmed,
                    "nothing to play: the scene has no operation armed (present, dismiss, push or pop first)")
            }
            var command = armed.command
            command.interactive = false
            return try run(command, at: now)
        }
        do {
            return counted(SessionReaction(try engine.play(at: now)))
        } catch {
            throw WireError(
                .busy,
                "the transition is \(engine.phase.rawValue)\(engine.isPointerDown ? " with a pointer down" : ""); play it when it rests"
            )
        }
    }

    mutating func tick(at now: Double) -> SessionReaction {
        var reaction = SessionReaction(engine.advance(to: now))
        sceneFollows(&reaction, at: now)
        tickDetentSettle(at: now, &reaction)
        if isRotating {
            reaction.frame = true
            let timeScale = settings.configuration.timeScale
            reaction.lifecycle += updateScene { $0.advanceRotation(to: now, timeScale: timeScale) }
        }
        return counted(reaction)
    }

    mutating func counted(_ reaction: SessionReaction) -> SessionReaction {
        if engine.phase != .idle || reaction.sceneChanged && !reaction.events.contains(where: Self.ends) {
            lastOutcome = nil
        }
        if reaction.frame { frameNumber += 1 }
        return reaction
    }

    /// The offset mapping a client timestamp onto the engine's axis (engine s = client s +
    /// offset). It is anchored at the pointer-down that starts a gesture (receive time − client
    /// time), so within a gesture the client's own timing — and with it the velocity — is kept
    /// exactly, even when events arrive in a burst. A release that maps ahead of the server clock
    /// (by at most `maximumLead`) starts its completion then: ticks before it are ignored. The
    /// caller keeps the engine's time from going backwards.
    func clockOffset(for message: PointerMessage, receivedAt received: Double) -> Double {
        if let clockOffset, message.phase != .down || engine.isPointerDown { return clockOffset }
        // Not before the engine's own time: a gesture that ended without a completion (inside
        // the slop, or the wrong way) may have left it ahead of the server's clock (its up was
        // held less than its down). Anchored at `received`, the new gesture's first events
        // would map behind it and be stamped all alike by `max(mapped, engine.time)`, changing
        // the release velocity with the network (a fling flipped direction).
        let anchor = engine.time.isFinite ? max(received, engine.time) : received
        return Self.onTimeGrid(anchor) - Self.onTimeGrid(message.time / 1000)
    }

    /// Engine times are kept on a grid of 2⁻³⁰ s (about a nanosecond), and so is the offset:
    /// a client time and the offset then add exactly (below 2²³ s, 97 days), so the spacing of a
    /// gesture's events on the engine's clock is exactly their spacing on the client's — the
    /// same bits wherever the gesture was anchored. Unrounded, a different arrival time (a
    /// simulated network) moved the last bits of every mapped time, and so of the release
    /// velocity (docs/ENGINE.md "Decisions do not depend on the network").
    static func onTimeGrid(_ seconds: Double) -> Double {
        (seconds * 0x1p30).rounded() * 0x1p-30
    }
}
