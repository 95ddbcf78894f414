import TransitionCore

/// A sandbox session on a virtual clock, with no socket: feed it the JSON texts a client would
/// send, each with the (virtual) second it arrives, and read the JSON texts the server would
/// send back. It carries out the actions of the live server's own `SessionHub` (parsing,
/// `SessionCore`, encoders) and runs the display link on the same `TickSchedule`. Two
/// differences, both on purpose: nothing is coalesced (every state's frame is returned; a live
/// slow reader may skip frames), and there is no other session to `join`.
///
/// The connection's side is the live server's own `Outbox` (the frame choice, the simulated
/// network's holding and delivering), within bounds no replay reaches, with every write let
/// through and the outbox drained after each action — so nothing is coalesced. With a simulated
/// network (`network`, or a `configure` carrying one) `nextTick` is also the next delivery, and
/// `tick()` carries it out (deliveries before a display-link tick due at the same time).
///
/// Same inputs, byte-identical outputs: the headless `sandbox pan --local` runs on this.
public struct VirtualSession {
    private var hub: SessionHub
    /// Its session's frames, encoded as the live server encodes them.
    private var frames: FrameCache
    private let id: String
    private let connection = ConnectionID(number: 0)
    /// The display link while the transition animates.
    private var display: TickSchedule?
    /// The connection's outbox: its simulated network and the last frame it was sent.
    private var outbox: Outbox
    /// The time of the latest input or tick, in seconds.
    public private(set) var now = 0.0

    /// `fps` is the server's default frame rate (`sandbox serve --fps`), in
    /// `SessionSettings.fpsRange`; `network` its default link (`serve --network`); `version` the
    /// protocol the client negotiated.
    public init(
        id: String = "virtual", fps: Int = 60, network: NetworkConditions = .loopback, version: ProtocolVersion = .v2
    ) {
        guard let defaults = SessionSettings(fps: fps) else {
            preconditionFailure("fps must be in \(SessionSettings.fpsRange)")
        }
        hub = SessionHub(defaults: defaults, network: network)
        frames = FrameCache(for: hub)
        self.id = id
        outbox = Outbox(limits: Self.replayLimits, headroom: 0, version: version, at: 0)
    }

    /// What a connecting client receives: `welcome` and the first frame.
    public mutating func connect(at time: Double) -> [String] {
        now = time
        var actions: [SessionAction] = []
        hub.connect(connection, session: id, version: outbox.version, into: &actions)
        return carryOut(actions)
    }

    /// One client message arriving at `time` (seconds; not before the previous input): the
    /// replies in the order the server writes them (replies first, then the frame).
    public mutating func receive(_ text: String, at time: Double) -> [String] {
        now = max(now, time)
        var out: [String] = []
        perform(outbox.received(Array(text.utf8), binary: false, at: now), into: &out)
        return out
    }

    /// When the server does something next on its own: the display link fires while the
    /// transition animates, or the simulated network delivers; nil when nothing will.
    public var nextTick: Double? {
        switch (nextFrameTick, outbox.networkDue) {
        case let (t?, d?): return min(t, d)
        case let (t, d): return t ?? d
        }
    }

    /// When the simulated network delivers next, if it holds anything.
    public var nextDelivery: Double? { outbox.networkDue }

    private var nextFrameTick: Double? {
        // While a pointer holds a grabbed completion the link is kept (its schedule goes on at
        // the release, as the live link's does if no tick fell in between), but does not fire.
        guard let display, hub.isAnimating(id) else { return nil }
        return display.upcoming
    }

    /// Carries out what is due at `nextTick` (a delivery, or one display-link tick); returns
    /// what reaches the client then.
    public mutating func tick() -> [String] {
        if let due = outbox.networkDue, nextFrameTick.map({ due <= $0 }) ?? true {
            return deliver(at: due)
        }
        guard nextFrameTick != nil, var display else { return [] }
        let time = display.next(notBefore: -.infinity)
        self.display = display
        now = max(now, time)
        var actions: [SessionAction] = []
        hub.tick(fps: display.fps, at: time, into: &actions)
        return carryOut(actions)
    }

    /// The simulated network's deliveries due at `time`: first what the server sent (it left
    /// earlier), then what the client sent reaches the session (its replies enter the link).
    private mutating func deliver(at time: Double) -> [String] {
        now = max(now, time)
        var out: [String] = []
        perform(outbox.deliverNetwork(at: now), into: &out)
        perform(outbox.deliveryEnded(), into: &out)
        return out
    }

    public var phase: TransitionPhase { hub.engine(of: id)!.phase }
    public var progress: Double { hub.engine(of: id)!.progress }

    /// The actions as the live server carries them out, for one connection: messages as text,
    /// each frame due as the frame itself (none coalesced; with a simulated network, held).
    private mutating func carryOut(_ actions: [SessionAction]) -> [String] {
        var out: [String] = []
        for action in actions {
            switch action {
            case .send(_, let message):
                let encoded = ServerMessages.encode(message, headroom: 0)
                perform(outbox.enqueue(encoded, startsFrames: message.startsFrames, at: now), into: &out)
            case .frameDue(let target):
                // Written at once (a due frame is not coalesced): the outbox's own request to
                // write is this drain, which hands it the frame.
                let frame = frames.frame(for: target, in: &hub, now: now)
                _ = outbox.frameDue(at: now) { frame }
                drain(latest: frame, into: &out)
            case .startTicking(let fps):
                display = TickSchedule(fps: fps, start: now)
            case .stopTicking:
                display = nil
            case .setLink(_, let conditions):
                outbox.setLink(conditions)
            case let .lookUp(connection, session, id):  // no other thread: not found
                var answer: [SessionAction] = []
                hub.lookUpFailed(connection, session: session, requestID: id, into: &answer)
                out += carryOut(answer)
            case .unregister(let session):
                frames.forget(session)
            case .charge(_, let bytes):
                perform(outbox.chargeFanOut(bytes: bytes, at: now), into: &out)
            case .register, .watchElsewhere, .stopWatchingElsewhere:
                break  // one session, one connection, no other thread
            }
        }
        return out
    }

    /// The outbox's actions on a replay: what it writes reaches the client at once, what it
    /// hands the session is received now.
    private mutating func perform(_ actions: [OutboxAction], into out: inout [String]) {
        for action in actions {
            switch action {
            case .requestWritable:
                drain(latest: nil, into: &out)
            case let .deliverToSession(bytes, binary, arrived):
                var session: [SessionAction] = []
                hub.receive(bytes, binary: binary, from: connection, at: now, arrived: arrived, into: &session)
                out += carryOut(session)
            case .networkDue, .write, .pauseInput, .resumeInput, .closing, .sendClose, .kill, .killSoon, .blocked,
                .rateLimited, .resetOnClose:
                break  // no socket; the replay's bounds are never reached
            }
        }
    }

    /// Writes everything the outbox has for the client now (the room always fits).
    private mutating func drain(latest frame: FrameEncoding?, into out: inout [String]) {
        while true {
            let actions = outbox.writable(at: now) { _ in
                .fits
            } latest: {
                frame
            }
            if actions.isEmpty { return }
            for case .write(let message, _) in actions { out.append(message.text) }
        }
    }

    /// Bounds no replay reaches: a script's messages are all delivered, none rate-limited.
    private static var replayLimits: ConnectionLimits {
        var limits = ConnectionLimits()
        limits.messageBytes = .max / 4
        limits.queuedReplies = .max / 4
        limits.queuedBytes = .max / 4
        limits.pauseReplies = .max / 4
        limits.pauseBytes = .max / 4
        limits.messagesPerSecond = .max / 4
        limits.bytesPerSecond = .max / 4
        return limits
    }
}
