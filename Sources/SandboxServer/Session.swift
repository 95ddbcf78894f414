import TransitionCore

/// One transition being driven: its engine, its driver connection and any viewers. Lives on
/// the service thread only.
final class Session {
    let id: String
    private(set) var settings: SessionSettings
    private(set) var engine: InteractiveTransition
    unowned let server: SandboxServer
    weak var driver: Connection?
    private(set) var viewers: [Connection] = []

    /// Frame counter, +1 per new state.
    private(set) var frameNumber = 0
    /// The highest pointer `seq` applied, and when (server ms) it was received.
    private(set) var ack: Int?
    private(set) var ackReceived: Double?
    /// Client clock (s) + offset = engine time (s); anchored when a gesture starts.
    private var clockOffset: Double?
    /// The latest frame's encoded bytes, shared by the driver and every viewer.
    private var encodedFrame: (number: Int, writer: JSONWriter)?

    init(id: String, settings: SessionSettings, server: SandboxServer) {
        self.id = id
        self.settings = settings
        self.server = server
        // The server's defaults are validated at startup; a failure here is a programming error.
        engine = try! InteractiveTransition(configuration: settings.configuration)
    }

    var connections: [Connection] { (driver.map { [$0] } ?? []) + viewers }

    /// Runs `body` for the driver and every viewer without building an array (per-frame path).
    private func forEachConnection(_ body: (Connection) -> Void) {
        if let driver { body(driver) }
        for viewer in viewers { body(viewer) }
    }

    func addViewer(_ connection: Connection) { viewers.append(connection) }
    func removeViewer(_ connection: Connection) { viewers.removeAll { $0 === connection } }

    // MARK: - Inputs

    func configure(_ fields: MessageFields) throws(WireError) {
        let next = try settings.applying(fields)
        // A pointer that is down (even before its pan begins) belongs to the current engine:
        // a new one would not know it, and its next move would be refused.
        guard engine.phase.isAtRest, !engine.isPointerDown else {
            throw WireError(.busy, "the transition is \(engine.phase.rawValue)\(engine.isPointerDown ? " with a pointer down" : ""); configure it when it rests")
        }
        // Validated by applying(_:), so this cannot fail.
        engine = try! InteractiveTransition(configuration: next.configuration)
        settings = next
        clockOffset = nil
        frameChanged()
    }

    func pointer(_ message: PointerMessage, receivedAt received: Double) throws(WireError) {
        let offset = clockOffset(for: message, receivedAt: received)
        let time = max(message.time / 1000 + offset, engine.time)
        let event = PointerEvent(message.phase, x: message.x, y: message.y, time: time, pointerID: message.pointerID)
        let reaction: Reaction
        do {
            reaction = try engine.handle(event)
        } catch {
            throw WireError(error, seq: message.seq)
        }
        clockOffset = offset  // only once the event is accepted: a refused one changes nothing
        ack = message.seq
        ackReceived = received * 1000
        apply(reaction)
        if engine.phase.isAnimating { server.displayLink(fps: settings.fps).add(self) }
    }

    /// Runs the whole transition without a pan (a tap that presents), from the server's clock.
    func play(at now: Double) throws(WireError) {
        do {
            apply(try engine.play(at: now))
        } catch {
            throw WireError(.busy, "the transition is \(engine.phase.rawValue)\(engine.isPointerDown ? " with a pointer down" : ""); play it when it rests")
        }
        server.displayLink(fps: settings.fps).add(self)
    }

    func tick(at now: Double) {
        apply(engine.advance(to: now))
    }

    /// The offset mapping a client timestamp onto the engine's axis (engine s = client s +
    /// offset). It is anchored at the pointer-down that starts a gesture (receive time − client
    /// time), so within a gesture the client's own timing — and with it the velocity — is kept
    /// exactly, even when events arrive in a burst. A release that maps ahead of the server clock
    /// starts its completion then: ticks before it are ignored. The caller keeps the engine's
    /// time from going backwards.
    private func clockOffset(for message: PointerMessage, receivedAt received: Double) -> Double {
        if let clockOffset, message.phase != .down || engine.isPointerDown { return clockOffset }
        return received - message.time / 1000
    }

    private func apply(_ reaction: Reaction) {
        for event in reaction.events {
            let message = ServerMessages.transition(event, headroom: server.headroom)
            forEachConnection { $0.enqueue(message) }
        }
        if reaction.frame { frameChanged() }
    }

    func frameChanged() {
        frameNumber += 1
        forEachConnection { $0.frameDue() }
    }

    /// The current frame, encoded once per frame number whoever asks.
    func encodedCurrentFrame() -> JSONWriter {
        if let cached = encodedFrame, cached.number == frameNumber { return cached.writer }
        let writer = ServerMessages.frame(
            engine.frame(), session: self, now: server.clock.now * 1000, headroom: server.headroom)
        encodedFrame = (frameNumber, writer)
        return writer
    }
}
