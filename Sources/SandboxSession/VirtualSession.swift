import TransitionCore

/// A sandbox session on a virtual clock, with no socket: feed it the JSON texts a client would
/// send, each with the (virtual) second it arrives, and read the JSON texts the server would
/// send back. It carries out the actions of the live server's own `SessionHub` (parsing,
/// `SessionCore`, encoders) and runs the display link on the same `TickSchedule`. Two
/// differences, both on purpose: nothing is coalesced (every state's frame is returned; a live
/// slow reader may skip frames), and there is no other session to `join`.
///
/// Same inputs, byte-identical outputs: the headless `sandbox pan --local` runs on this.
public struct VirtualSession {
    private var hub: SessionHub
    private let id: String
    private let connection = ConnectionID(number: 0)
    /// The display link while the transition animates.
    private var link: TickSchedule?
    /// The time of the latest input or tick, in seconds.
    public private(set) var now = 0.0

    /// `fps` is the server's default frame rate (`sandbox serve --fps`), in
    /// `SessionSettings.fpsRange`.
    public init(id: String = "virtual", fps: Int = 60) {
        guard let defaults = SessionSettings(fps: fps) else { preconditionFailure("fps must be in \(SessionSettings.fpsRange)") }
        hub = SessionHub(defaults: defaults)
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
        var actions: [SessionAction] = []
        hub.receive(Array(text.utf8), from: connection, at: now, into: &actions)
        return carryOut(actions)
    }

    /// When the display link fires next, while the transition animates; nil at rest.
    public var nextTick: Double? {
        // While a pointer holds a grabbed completion the link is kept (its schedule goes on at
        // the release, as the live link's does if no tick fell in between), but does not fire.
        guard let link, hub.isAnimating(id) else { return nil }
        return link.upcoming
    }

    /// Fires the display link once (at `nextTick`); returns what the server sends then.
    public mutating func tick() -> [String] {
        guard nextTick != nil, var link else { return [] }
        let time = link.next(notBefore: -.infinity)
        self.link = link
        now = max(now, time)
        var actions: [SessionAction] = []
        hub.tick(fps: link.fps, at: time, into: &actions)
        return carryOut(actions)
    }

    public var phase: TransitionPhase { hub.engine(of: id)!.phase }
    public var progress: Double { hub.engine(of: id)!.progress }

    /// The actions as the live server carries them out, for one connection: messages as text,
    /// each frame due as the frame itself (none coalesced).
    private mutating func carryOut(_ actions: [SessionAction]) -> [String] {
        var out: [String] = []
        for action in actions {
            switch action {
            case .send(_, let message):
                out.append(ServerMessages.encode(message, headroom: 0).text)
            case .frameDue(let target):
                if let frame = hub.frame(for: target, now: now) { out.append(frame.text) }
            case .startTicking(let fps):
                link = TickSchedule(fps: fps, start: now)
            case .stopTicking:
                link = nil
            case .register, .unregister, .watchElsewhere, .stopWatchingElsewhere:
                break  // one session, one connection, no other thread
            }
        }
        return out
    }
}
