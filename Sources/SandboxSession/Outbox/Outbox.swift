/// One connection's outgoing side and its input limits, as decisions: the executor (`Connection`,
/// libwebsockets) feeds it what happens and carries out the `OutboxAction`s it returns, in order.
/// Pure: no socket, no clock (time is an argument), no globals.
///
/// Outgoing data is bounded in count and bytes: replies queue up to `queuedReplies` and
/// `queuedBytes` (past either: 1008, `OutboxTests.replyCountBound`, `replyByteBound`); frames
/// never queue — the outbox only remembers that a frame is due and is handed the session's latest
/// when the socket can write (latest state wins, `OutboxTests.latestFrameWins`). One write per
/// WRITEABLE, and only when the room check says the whole message fits: otherwise `blocked`,
/// and the retry tick asks again; output that waits `writeStallSeconds` without a write is cut
/// (`OutboxTests.stallCut`).
public struct Outbox {
    public struct Close: Equatable, Sendable {
        public let code: Int
        public let reason: String
    }

    public enum State: Equatable {
        case open
        /// The close frame waits for the next WRITEABLE, after the queued replies.
        case closing(Close)
        /// The close frame went to the socket: nothing more is read, queued or sent.
        case closed
        /// Cut without a close frame (a stalled or failed write).
        case cut
    }

    /// What the socket can take now (the executor's room check, `SendRoom` in the live server).
    public enum Room: Equatable {
        case fits
        /// Not now: try again when the peer has read some.
        case later
        /// Never: the message is larger than anything the socket will take.
        case never
    }

    private enum InputFlow { case reading, paused }

    public let limits: ConnectionLimits
    /// The protocol its client negotiated: which encoding of each frame it is sent.
    public let version: ProtocolVersion
    /// Bytes reserved before each payload this outbox encodes itself (the rate-limit error).
    let headroom: Int
    public internal(set) var state: State = .open
    var replies = ReplyQueue()
    var isFrameDue = false
    /// Since when a write has been waiting for room; nil while writes flow.
    public internal(set) var blockedSince: Double?
    /// Since when output has waited without a write; nil when nothing waits.
    var outputSince: Double?
    var budget: InputBudget
    private var input = InputFlow.reading
    /// The simulated network (`NetworkLink`), while one is set or holds something.
    var link: NetworkLink?
    /// The latest frame its link delivered, and when (stamped `delivered` when sent), sent
    /// instead of the session's.
    var deliveredFrame: (frame: FrameEncoding, at: Double)?
    /// The id of the last frame handed to the socket (or queued for it): a delta applies to it.
    var lastFrame: UInt64?
    /// The link has output due that waits for the reply queue to drain.
    var outputBacklogged = false
    /// Delivering a batch: a `configure` turning the link off must not drop it mid-batch.
    var isDelivering = false

    public init(limits: ConnectionLimits, headroom: Int, version: ProtocolVersion = .v2, at now: Double) {
        self.limits = limits
        self.version = version
        self.headroom = headroom
        budget = InputBudget(limits: limits, at: now)
    }

    /// Nothing more is read, queued or sent (the close is decided).
    public var isClosing: Bool { state != .open }
    /// Whether the retry tick should ask for WRITEABLE again.
    public var isBlocked: Bool { blockedSince != nil }
    public var queuedReplies: Int { replies.count }
    public var queuedBytes: Int { replies.bytes }

    // MARK: - Out

    /// A reply of the session. `startsFrames`: a `welcome` or `joined`, after which the client
    /// holds no frame — the next frame is sent whole (`OutboxTests.startsFramesSendsWhole`).
    public mutating func enqueue(
        _ message: EncodedMessage, startsFrames: Bool = false, at now: Double
    ) -> [OutboxAction] {
        var out: [OutboxAction] = []
        enqueue(message, startsFrames: startsFrames, at: now, into: &out)
        return out
    }

    mutating func enqueue(
        _ message: EncodedMessage, startsFrames: Bool, at now: Double, into out: inout [OutboxAction]
    ) {
        guard !isClosing else { return }
        if link != nil {
            hold(startsFrames ? .framesStart(message) : .message(message), at: now, into: &out)
        } else {
            queue(message, startsFrames: startsFrames, at: now, into: &out)
        }
    }

    /// Into the reply queue, within its bounds.
    mutating func queue(
        _ message: EncodedMessage, startsFrames: Bool = false, at now: Double, into out: inout [OutboxAction]
    ) {
        if replies.count >= limits.queuedReplies || replies.bytes + message.payloadCount > limits.queuedBytes {
            // The peer does not read. Free what it left unread now, and do not wait for a
            // WRITEABLE that may never come: a polite 1008 if it can still be sent, a kill soon.
            drop(1008, "too many unread replies", killAfter: 2, into: &out)
            return
        }
        replies.append(message)
        if startsFrames { lastFrame = nil }
        if outputSince == nil { outputSince = now }
        // A client that sends faster than it reads is throttled like TCP would: stop reading
        // its input until it has read most of its replies.
        updateInputPause(into: &out)
        requestWrite(into: &out)
    }

    /// The session has a new frame for this connection. `latest` is read only with a simulated
    /// network (the state now, delivered later); without one, at the next WRITEABLE.
    public mutating func frameDue(at now: Double, latest: () -> FrameEncoding?) -> [OutboxAction] {
        var out: [OutboxAction] = []
        frameDue(at: now, latest: latest, into: &out)
        return out
    }

    /// The same, appending to `out` (the live connection reuses one list: nothing allocated per frame).
    public mutating func frameDue(at now: Double, latest: () -> FrameEncoding?, into out: inout [OutboxAction]) {
        guard !isClosing else { return }
        if link != nil {
            if let frame = latest() { hold(.frame(frame), at: now, into: &out) }
            return
        }
        markFrameDue(at: now, into: &out)
    }

    mutating func markFrameDue(at now: Double, into out: inout [OutboxAction]) {
        if outputSince == nil { outputSince = now }
        isFrameDue = true
        requestWrite(into: &out)
    }

    // MARK: - Closing

    /// Closes politely: the close frame goes out at the next WRITEABLE, after the queued replies.
    public mutating func close(_ code: Int, _ reason: String) -> [OutboxAction] {
        var out: [OutboxAction] = []
        close(code, reason, into: &out)
        return out
    }

    mutating func close(_ code: Int, _ reason: String, into out: inout [OutboxAction]) {
        guard !isClosing else { return }
        state = .closing(Close(code: code, reason: reason))
        // What the simulated network still holds is not delivered.
        link = nil
        out.append(.closing(code: code))
        resumeInput(into: &out)
        requestWrite(into: &out)
    }

    /// Closes at once, dropping what is queued: a close frame if the socket takes it within
    /// `killAfter` seconds, else the connection is cut (`OutboxTests.replyCountBound`).
    mutating func drop(_ code: Int, _ reason: String, killAfter seconds: Int, into out: inout [OutboxAction]) {
        guard !isClosing else { return }
        replies.removeAll()
        isFrameDue = false
        link = nil
        deliveredFrame = nil
        state = .closing(Close(code: code, reason: reason))
        out.append(.closing(code: code))
        // Input is read and discarded from now on: closing a socket with unread input sends a
        // reset, which would destroy the close frame (and the error before it) at the peer.
        resumeInput(into: &out)
        out.append(.kill(after: seconds))
        requestWrite(into: &out)
    }

    /// The watchdog: output that waited `writeStallSeconds` without a write belongs to a peer
    /// that stopped reading; it is cut (`OutboxTests.stallCut`).
    public mutating func checkStall(at now: Double) -> [OutboxAction] {
        guard let since = outputSince, now - since > limits.writeStallSeconds else { return [] }
        outputSince = nil
        blockedSince = nil
        if case .closing = state {} else { state = .cut }
        replies.removeAll()
        link = nil
        deliveredFrame = nil
        return [.closing(code: 1006), .killSoon]
    }

    /// The socket kept part of a write despite the room check: nothing more is read, queued or
    /// sent (the executor stops reading and cuts the connection).
    public mutating func writeSplit() {
        if state == .open { state = .cut }
    }

    // MARK: - Flow control

    /// Reading pauses when too many replies wait or too much input is held by the simulated
    /// network, and resumes once each is down to half (`OutboxTests.inputPauseHysteresis`).
    mutating func updateInputPause(into out: inout [OutboxAction]) {
        guard !isClosing else { return }
        // Held input, and held replies (not frames, which give way): what the client sends turns
        // into more of both, so reading pauses while either is large, as a full TCP window would.
        let held = max(link?.heldInboundBytes ?? 0, link?.heldOutboundMessageBytes ?? 0)
        switch input {
        case .paused:
            if replies.count <= limits.pauseReplies / 2, replies.bytes <= limits.pauseBytes / 2,
                held <= limits.pauseBytes / 2, !outputBacklogged
            {
                input = .reading
                out.append(.resumeInput)
            }
        case .reading:
            if replies.count >= limits.pauseReplies || replies.bytes >= limits.pauseBytes || held >= limits.pauseBytes
                || outputBacklogged
            {
                input = .paused
                out.append(.pauseInput)
            }
        }
    }

    mutating func resumeInput(into out: inout [OutboxAction]) {
        if input == .paused {
            input = .reading
            out.append(.resumeInput)
        }
    }

    func requestWrite(into out: inout [OutboxAction]) {
        // While blocked, the retry tick asks for WRITEABLE: asking now would only bring a
        // callback that finds no room.
        if blockedSince == nil { out.append(.requestWritable) }
    }
}
