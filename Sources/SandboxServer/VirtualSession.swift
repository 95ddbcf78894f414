import TransitionCore

/// A sandbox session on a virtual clock, with no socket: feed it the JSON texts a client would
/// send, each with the (virtual) second it arrives, and read the JSON texts the server would
/// send back. It runs the live server's own parsing, `SessionCore` and encoders, and a display
/// link that ticks at k/fps after an animation starts, as the live one does. Two differences,
/// both on purpose: nothing is coalesced (every state's frame is returned; a live slow reader
/// may skip frames), and there is no other session to `join`.
///
/// Same inputs, byte-identical outputs: the headless `sandbox pan --local` runs on this.
public struct VirtualSession {
    private var core: SessionCore
    private var lastSeq: Int?
    /// The display link: when the running animation started, and the ticks taken since.
    private var link: (start: Double, ticks: Int)?
    /// The time of the latest input or tick, in seconds.
    public private(set) var now = 0.0

    /// `fps` is the server's default frame rate (`sandbox serve --fps`), 1…240.
    public init(id: String = "virtual", fps: Int = 60) {
        precondition(SessionSettings.fpsRange.contains(fps), "fps must be in 1…240")
        var defaults = SessionSettings()
        defaults.fps = fps
        core = SessionCore(id: id, settings: defaults)
    }

    /// What a connecting client receives: `welcome` and the first frame.
    public mutating func connect(at time: Double) -> [String] {
        now = time
        return [ServerMessages.welcome(core, headroom: 0).text, frame()]
    }

    /// One client message arriving at `time` (seconds; not before the previous input): the
    /// replies in the order the server writes them (replies first, then the frame).
    public mutating func receive(_ text: String, at time: Double) -> [String] {
        now = max(now, time)
        var replies: [String] = []
        do {
            let reaction = try dispatch(try ClientMessage.parse(Array(text.utf8)), replies: &replies)
            replies += transition(reaction)
        } catch {
            replies.append(ServerMessages.error(error, headroom: 0).text)
        }
        return replies
    }

    /// When the display link fires next, while the transition animates; nil at rest.
    public var nextTick: Double? {
        guard let link, core.engine.phase.isAnimating else { return nil }
        return link.start + Double(link.ticks + 1) / Double(core.settings.fps)
    }

    /// Fires the display link once (at `nextTick`); returns what the server sends then.
    public mutating func tick() -> [String] {
        guard let time = nextTick, var link else { return [] }
        link.ticks += 1
        self.link = link
        now = max(now, time)
        // Tick first, then encode: `transition(core.tick(...))` would read `self` (the old core)
        // before the argument mutates it.
        let reaction = core.tick(at: time)
        let replies = transition(reaction)
        if !core.engine.phase.isAnimating { self.link = nil }
        return replies
    }

    public var phase: TransitionPhase { core.engine.phase }
    public var progress: Double { core.engine.progress }

    // MARK: - The live server's dispatch, for a driver

    private mutating func dispatch(_ message: ClientMessage, replies: inout [String]) throws(WireError) -> Reaction {
        switch message {
        case let .ping(seq, time):
            replies.append(ServerMessages.pong(seq: seq, time: time, serverTime: now * 1000, headroom: 0).text)
            return .none
        case .join(let id):
            throw WireError(.unknownSession, "no session \(WireError.quoted(id))")
        case .configure(let fields):
            let reaction = try core.configure(fields)
            replies.append(ServerMessages.configured(core, joined: false, headroom: 0).text)
            return reaction
        case .play:
            let reaction = try core.play(at: now)
            startLink()
            return reaction
        case .pointer(let pointer):
            try pointer.checkSequence(after: lastSeq)
            let reaction = try core.pointer(pointer, receivedAt: now)
            lastSeq = pointer.seq
            if core.engine.phase.isAnimating { startLink() }
            return reaction
        }
    }

    /// A display link starts when the first animating session joins it (DisplayLink.add).
    private mutating func startLink() {
        if link == nil { link = (now, 0) }
    }

    private func transition(_ reaction: Reaction) -> [String] {
        var out = reaction.events.map { ServerMessages.transition($0, headroom: 0).text }
        if reaction.frame { out.append(frame()) }
        return out
    }

    private func frame() -> String {
        ServerMessages.frame(core, now: now * 1000, headroom: 0).text
    }
}
