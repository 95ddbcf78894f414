import TransitionCore

/// One transition being driven on the live server: its `SessionCore`, its driver connection and
/// any viewers. Lives on the service thread only.
final class Session {
    // Service-thread only; the per-frame path reads these for every connection (no dynamic
    // exclusivity bookkeeping needed).
    @exclusivity(unchecked) private(set) var core: SessionCore
    unowned let server: SandboxServer
    weak var driver: Connection?
    private(set) var viewers: [Connection] = []
    /// The latest frame's encoded bytes, shared by the driver and every viewer.
    @exclusivity(unchecked) private var encodedFrame: (number: Int, message: SharedMessage)?

    init(id: String, settings: SessionSettings, server: SandboxServer) {
        core = SessionCore(id: id, settings: settings)
        self.server = server
    }

    var id: String { core.id }
    var settings: SessionSettings { core.settings }
    var engine: InteractiveTransition { core.engine }
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
        apply(try core.configure(fields))
    }

    func pointer(_ message: PointerMessage, receivedAt received: Double) throws(WireError) {
        apply(try core.pointer(message, receivedAt: received))
        if engine.phase.isAnimating { server.displayLink(fps: settings.fps).add(self) }
    }

    func play(at now: Double) throws(WireError) {
        apply(try core.play(at: now))
        server.displayLink(fps: settings.fps).add(self)
    }

    func tick(at now: Double) {
        apply(core.tick(at: now))
    }

    private func apply(_ reaction: Reaction) {
        for event in reaction.events {
            let message = ServerMessages.transition(event, headroom: server.headroom)
            forEachConnection { $0.enqueue(message) }
        }
        if reaction.frame { frameChanged() }
    }

    /// Tells every connection a new frame is due (a joining viewer asks for the current one).
    func frameChanged() {
        forEachConnection { $0.frameDue() }
    }

    /// The current frame, encoded once per frame number whoever asks.
    func encodedCurrentFrame() -> SharedMessage {
        if let cached = encodedFrame, cached.number == core.frameNumber { return cached.message }
        let message = SharedMessage(ServerMessages.frame(core, now: server.clock.now * 1000, headroom: server.headroom))
        encodedFrame = (core.frameNumber, message)
        return message
    }
}

/// An encoded message written to several connections. A class, so that `lws_write` (which
/// writes the WebSocket header into the headroom) works on the one buffer in place: a
/// `JSONWriter` value shared by a cache and a writer would be copied on that write. Every
/// connection writes the same header for the same payload, so the in-place header is harmless.
final class SharedMessage {
    @exclusivity(unchecked) var writer: JSONWriter
    init(_ writer: JSONWriter) { self.writer = writer }
}
