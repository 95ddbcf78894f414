import TransitionCore

/// A sandbox session on a virtual clock, with no socket: feed it the JSON texts a client would
/// send, each with the (virtual) second it arrives, and read the JSON texts the server would
/// send back. It carries out the actions of the live server's own `SessionHub` (parsing,
/// `SessionCore`, encoders) and runs the display link on the same `TickSchedule`. Two
/// differences, both on purpose: nothing is coalesced (every state's frame is returned; a live
/// slow reader may skip frames), and there is no other session to `join`.
///
/// With a simulated network (`network`, or a `configure` carrying one) the connection's
/// `NetworkLink` holds what it sends and is sent, as the live server's does: `nextTick` is then
/// also the next delivery, and `tick()` carries it out (deliveries before a display-link tick
/// due at the same time).
///
/// Same inputs, byte-identical outputs: the headless `sandbox pan --local` runs on this.
public struct VirtualSession {
    private var hub: SessionHub
    private let id: String
    private let connection = ConnectionID(number: 0)
    /// The display link while the transition animates.
    private var display: TickSchedule?
    /// The connection's simulated network, while one is set or holds something.
    private var link: NetworkLink?
    /// The id of the last frame sent (a delta applies to it: `FrameEncoding`).
    private var lastFrame: UInt64?
    /// The time of the latest input or tick, in seconds.
    public private(set) var now = 0.0

    /// `fps` is the server's default frame rate (`sandbox serve --fps`), in
    /// `SessionSettings.fpsRange`; `network` its default link (`serve --network`).
    public init(id: String = "virtual", fps: Int = 60, network: NetworkConditions = .loopback) {
        guard let defaults = SessionSettings(fps: fps) else { preconditionFailure("fps must be in \(SessionSettings.fpsRange)") }
        hub = SessionHub(defaults: defaults, network: network)
        self.id = id
    }

    /// What a connecting client receives: `welcome` and the first frame.
    public mutating func connect(at time: Double) -> [String] {
        now = time
        var actions: [SessionAction] = []
        hub.connect(connection, session: id, into: &actions)
        return carryOut(actions)
    }

    /// One client message arriving at `time` (seconds; not before the previous input): the
    /// replies in the order the server writes them (replies first, then the frame).
    public mutating func receive(_ text: String, at time: Double) -> [String] {
        now = max(now, time)
        if link != nil {
            link!.holdInbound(Array(text.utf8), binary: false, at: now)
            return []
        }
        var actions: [SessionAction] = []
        hub.receive(Array(text.utf8), from: connection, at: now, into: &actions)
        return carryOut(actions)
    }

    /// When the server does something next on its own: the display link fires while the
    /// transition animates, or the simulated network delivers; nil when nothing will.
    public var nextTick: Double? {
        switch (nextFrameTick, link?.nextDue) {
        case let (t?, d?): return min(t, d)
        case let (t, d): return t ?? d
        }
    }

    /// When the simulated network delivers next, if it holds anything.
    public var nextDelivery: Double? { link?.nextDue }

    private var nextFrameTick: Double? {
        // While a pointer holds a grabbed completion the link is kept (its schedule goes on at
        // the release, as the live link's does if no tick fell in between), but does not fire.
        guard let display, hub.isAnimating(id) else { return nil }
        return display.upcoming
    }

    /// Carries out what is due at `nextTick` (a delivery, or one display-link tick); returns
    /// what reaches the client then.
    public mutating func tick() -> [String] {
        if let due = link?.nextDue, nextFrameTick.map({ due <= $0 }) ?? true {
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
        for item in link!.takeOutbound(dueBy: now) {
            switch item {
            case .message(let message): out.append(message.text)
            case .framesStart(let message):
                lastFrame = nil
                out.append(message.text)
            case .frame(let frame): out.append(sent(frame).appending("delivered", milliseconds: now * 1000).text)
            }
        }
        for message in link!.takeInbound(dueBy: now) {
            var actions: [SessionAction] = []
            hub.receive(message.bytes, binary: message.binary, from: connection, at: now, arrived: message.arrived, into: &actions)
            out += carryOut(actions)
        }
        if link!.isIdle { link = nil }
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
                send(message.startsFrames ? .framesStart(encoded) : .message(encoded), into: &out)
            case .frameDue(let target):
                if let frame = hub.frame(for: target, now: now) { send(.frame(frame), into: &out) }
            case .startTicking(let fps):
                display = TickSchedule(fps: fps, start: now)
            case .stopTicking:
                display = nil
            case .setLink(_, let conditions):
                if link == nil {
                    if conditions.isActive { link = NetworkLink(conditions) }
                } else {
                    link!.conditions = conditions
                }
            case let .lookUp(connection, session, id):  // no other thread: not found
                var answer: [SessionAction] = []
                hub.lookUpFailed(connection, session: session, requestID: id, into: &answer)
                out += carryOut(answer)
            case .register, .unregister, .watchElsewhere, .stopWatchingElsewhere:
                break  // one session, one connection, no other thread
            }
        }
        return out
    }

    /// Straight to the client, or into the simulated network. Nothing is ever dropped here
    /// (no byte bound: a replay holds what its script sends).
    private mutating func send(_ item: NetworkLink.Outbound, into out: inout [String]) {
        guard link != nil else {
            switch item {
            case .message(let message): out.append(message.text)
            case .framesStart(let message):
                lastFrame = nil
                out.append(message.text)
            case .frame(let frame): out.append(sent(frame).text)
            }
            return
        }
        _ = link!.holdOutbound(item, at: now, room: .max)
    }

    /// The frame as the connection is sent it now: a delta against the last one sent, or whole.
    private mutating func sent(_ frame: FrameEncoding) -> EncodedMessage {
        defer { lastFrame = frame.id }
        return frame.message(after: lastFrame)
    }
}
