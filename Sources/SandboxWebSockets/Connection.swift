import DequeModule
import SandboxSession

/// One WebSocket connection: the driver of its own session or a viewer of another's.
///
/// Outgoing data is bounded in count and bytes: replies queue up to `Limits.queuedReplies` and
/// `Limits.queuedBytes`; frames never queue — a connection only holds a "frame due" flag and is
/// sent the session's latest frame when it can write (latest state wins). A message is handed to
/// libwebsockets only when the kernel's send buffer can take all of it (`SendRoom`), so lws never
/// holds a partial write (the 4.1.6 livelock, docs/SECURITY.md); otherwise the connection waits
/// for the server's retry tick, and a connection that cannot write for `Limits.writeStallSeconds`
/// is closed.
final class Connection {
    let id: ConnectionID
    let socket: WebSocketHandle
    unowned let server: SandboxServer

    // Service-thread only (see SandboxServer): no dynamic exclusivity bookkeeping needed.
    @exclusivity(unchecked) private var replies = Deque<EncodedMessage>()
    @exclusivity(unchecked) private var queuedBytes = 0
    @exclusivity(unchecked) private var isFrameDue = false
    private var incoming: [UInt8] = []
    private var incomingIsBinary = false
    private var pendingClose: (code: Int, reason: String)?
    /// Set once the connection is being closed: nothing more is read, queued or sent.
    private(set) var isClosing = false
    /// Since when (server clock, s) a write has been waiting for room; nil while writes flow.
    private(set) var blockedSince: Double?
    /// Since when output has waited without a write (server clock, s); nil when nothing waits.
    private var outputSince: Double?
    private var inputBudget: InputBudget
    /// Reading is paused while too many replies wait, or too much input is held by the
    /// simulated network (`updateInputPause`).
    private var isInputPaused = false
    /// The connection's simulated network (`NetworkLink`), while one is set or holds something.
    private var link: NetworkLink?
    /// The latest frame its link delivered, and when (stamped `delivered` when sent), sent
    /// instead of the session's.
    private var deliveredFrame: (frame: FrameEncoding, at: Double)?
    /// The id of the last frame handed to the socket (or queued for it): a delta applies to it
    /// (`FrameEncoding.message(after:)`).
    private var lastFrame: UInt64?
    /// The link has output due that waits for the reply queue to drain (`deliverOutput`).
    private var outputBacklogged = false
    /// Delivering: a `configure` turning the link off must not drop it mid-batch.
    private var isDelivering = false
    /// The due time the server's network queue holds for this connection (`networkHolds`).
    var networkScheduled: Double?
    /// What the kernel's send buffer can take, known without asking it each time.
    @exclusivity(unchecked) private var sendEstimate = SendRoomEstimate()
    /// Bytes, frames and the close code, for the log line and the metrics.
    var stats: ConnectionStats

    init(id: ConnectionID, socket: WebSocketHandle, server: SandboxServer, at now: Double) {
        self.id = id
        self.socket = socket
        self.server = server
        inputBudget = InputBudget(limits: server.limits, at: now)
        stats = ConnectionStats(peer: socket.peerAddress, openedAt: now)
    }

    // MARK: - Out

    /// `startsFrames`: a `welcome` or `joined`, after which the client holds no frame — the
    /// next frame is sent whole (decided where the message enters the socket's queue, the
    /// place the client meets it).
    func enqueue(_ message: EncodedMessage, startsFrames: Bool = false) {
        guard !isClosing else { return }
        if link != nil {
            hold(startsFrames ? .framesStart(message) : .message(message))
        } else {
            queue(message, startsFrames: startsFrames)
        }
    }

    /// Into the reply queue, within its bounds.
    private func queue(_ message: EncodedMessage, startsFrames: Bool = false) {
        let limits = server.limits
        if replies.count >= limits.queuedReplies || queuedBytes + message.payloadCount > limits.queuedBytes {
            // The peer does not read. Free what it left unread now, and do not wait for a
            // WRITEABLE that may never come: a polite 1008 if it can still be sent, a kill soon.
            drop(1008, "too many unread replies", killAfter: 2)
            return
        }
        replies.append(message)
        if startsFrames { lastFrame = nil }
        queuedBytes += message.payloadCount
        if outputSince == nil { outputSince = server.clock.now }
        // A client that sends faster than it reads is throttled like TCP would: stop reading
        // its input until it has read most of its replies (lws keeps the unread rest).
        updateInputPause()
        requestWrite()
    }

    func frameDue() {
        guard !isClosing else { return }
        if link != nil {
            // The state now, delivered later: the session's frame as it is at this moment.
            if let frame = server.latestFrame(for: self) { hold(.frame(frame)) }
            return
        }
        markFrameDue()
    }

    private func markFrameDue() {
        if outputSince == nil { outputSince = server.clock.now }
        isFrameDue = true
        requestWrite()
    }

    // MARK: - The simulated network

    /// A frame the link delivers: every frame that entered the network reaches the socket, in
    /// order with the messages around it, as TCP would deliver it — queued like a reply while
    /// the queue is short. A reader that falls behind gets latest-wins instead (the newest
    /// delivered frame, sent after the replies), as without a link; a queued frame supersedes
    /// an older one waiting that way.
    private func deliver(_ frame: FrameEncoding, at now: Double) {
        let limits = server.limits
        let message = frame.message(after: lastFrame)
        if replies.count < limits.pauseReplies / 2, queuedBytes + message.payloadCount <= limits.pauseBytes / 2 {
            deliveredFrame = nil
            // Chosen now: queued messages all reach the socket, in order.
            lastFrame = frame.id
            queue(message.appending("delivered", milliseconds: now * 1000))
        } else {
            deliveredFrame = (frame, now)
            markFrameDue()
        }
    }

    /// `.setLink`: what the connection sends and is sent from now on is held under these
    /// conditions; what is held already keeps its due time (and its place: order is kept).
    func setLink(_ conditions: NetworkConditions) {
        guard !isClosing else { return }
        if link == nil {
            guard conditions.isActive else { return }
            link = NetworkLink(conditions)
        } else {
            link!.conditions = conditions
            // Not while delivering: the rest of the batch still goes through it.
            if link!.isIdle, !isDelivering { link = nil }
        }
    }

    /// When its link delivers next (nil: nothing held, or only output waiting for the reply
    /// queue to drain — `writable` delivers that).
    var networkDue: Double? {
        guard let link else { return nil }
        if outputBacklogged { return link.nextInboundDue }
        return link.nextDue
    }

    /// Output into the link, within the same byte bound as the reply queue: held and queued
    /// bytes together stay under `Limits.queuedBytes` (older held frames give way first).
    private func hold(_ item: NetworkLink.Outbound) {
        let room = server.limits.queuedBytes - queuedBytes
        guard link!.holdOutbound(item, at: server.clock.now, room: room) == .held else {
            drop(1008, "too many unread replies", killAfter: 2)
            return
        }
        if !item.isFrame { updateInputPause() }
        server.networkHolds(self)
    }

    /// The server's network timer: what the link holds that is due by `now` goes on — output
    /// to the socket first (it left the session earlier), then input to the session.
    func deliverNetwork(at now: Double) {
        guard link != nil, !isClosing else { return }
        isDelivering = true
        defer { isDelivering = false }
        deliverOutput(at: now)
        if isClosing { return }
        // A whole batch, whatever the hub does meanwhile (a `configure` may turn the link off:
        // it is dropped below, once idle); only closing stops it.
        for message in link!.takeInbound(dueBy: now) {
            server.received(message.bytes, binary: message.binary, from: self, at: now, arrived: message.arrived)
            if isClosing { return }
        }
        if link!.isIdle { link = nil }
        updateInputPause()
    }

    /// Output due by `now`, as far as the reply queue takes it: messages stop at the queue's
    /// pause mark and wait in the link (`outputBacklogged`, input paused) until `writable`
    /// drains the queue — a client that reads everything is never dropped for a burst the link
    /// released at once.
    private func deliverOutput(at now: Double) {
        let limits = server.limits
        outputBacklogged = false
        guard link != nil, !isClosing else { return }
        while let due = link!.nextOutboundDue, due <= now {
            if replies.count >= limits.pauseReplies || queuedBytes >= limits.pauseBytes {
                outputBacklogged = true
                break
            }
            switch link!.takeFirstOutbound(dueBy: now)! {
            case .message(let message):
                queue(message)
            case .framesStart(let message):
                queue(message, startsFrames: true)
            case .frame(let frame):
                deliver(frame, at: now)
            }
            if isClosing { return }
        }
        updateInputPause()
    }

    /// Closes politely: the close frame goes out at the next WRITEABLE (after nothing else).
    func close(_ code: Int, _ reason: String) {
        guard !isClosing else { return }
        pendingClose = (code, reason)
        isClosing = true
        // What the simulated network still holds is not delivered (the session is over for
        // this connection either way).
        link = nil
        stats.serverCloses(code)
        resumeInput()
        requestWrite()
    }

    /// Closes at once, dropping what is queued: a close frame if the socket takes it within
    /// `killAfter` seconds, else the connection is cut.
    func drop(_ code: Int, _ reason: String, killAfter seconds: Int) {
        guard !isClosing else { return }
        replies.removeAll()
        queuedBytes = 0
        isFrameDue = false
        link = nil
        deliveredFrame = nil
        pendingClose = (code, reason)
        isClosing = true
        stats.serverCloses(code)
        // Input is read and discarded from now on: closing a socket with unread input sends a
        // reset, which would destroy the close frame (and the error before it) at the peer.
        resumeInput()
        socket.kill(after: seconds)
        requestWrite()
    }

    /// Reading pauses when too many replies wait or too much input is held by the simulated
    /// network, and resumes once each is down to half (TCP's flow control, by hand).
    private func updateInputPause() {
        guard !isClosing else { return }
        let limits = server.limits
        // Held input, and held replies (not frames, which give way): what the client sends turns
        // into more of both, so reading pauses while either is large, as a full TCP window would.
        let held = max(link?.heldInboundBytes ?? 0, link?.heldOutboundMessageBytes ?? 0)
        if isInputPaused {
            if replies.count <= limits.pauseReplies / 2, queuedBytes <= limits.pauseBytes / 2, held <= limits.pauseBytes / 2,
               !outputBacklogged {
                isInputPaused = false
                socket.readInput(true)
            }
        } else if replies.count >= limits.pauseReplies || queuedBytes >= limits.pauseBytes || held >= limits.pauseBytes
                    || outputBacklogged {
            isInputPaused = true
            socket.readInput(false)
        }
    }

    private func resumeInput() {
        if isInputPaused {
            isInputPaused = false
            socket.readInput(true)
        }
    }

    private func requestWrite() {
        // While blocked, the server's retry tick asks for WRITEABLE: asking now would only bring
        // a callback that finds no room.
        if blockedSince == nil { socket.requestWritable() }
    }

    /// The server's retry tick, after the room check said no: ask again for WRITEABLE. Returns
    /// false once the connection is no longer blocked.
    func retryBlockedWrite() -> Bool {
        guard blockedSince != nil else { return false }
        socket.requestWritable()
        return true
    }

    /// The server's watchdog: a connection whose output has waited `writeStallSeconds` without a
    /// write — the kernel never said writeable, or never had room — belongs to a peer that stopped
    /// reading. It is cut (a timeout kill in lws drops whatever lws held, too).
    func checkWriteStall(at now: Double) {
        guard let since = outputSince, now - since > server.limits.writeStallSeconds else { return }
        outputSince = nil
        blockedSince = nil
        isClosing = true
        stats.serverCloses(1006)  // cut: no close frame
        replies.removeAll()
        queuedBytes = 0
        link = nil
        deliveredFrame = nil
        socket.killSoon()
    }

    /// LWS_CALLBACK_SERVER_WRITEABLE: at most one write per call. Returns -1 to close.
    /// Order: queued replies, then a pending close, then the latest frame (none while closing).
    func writable() -> Int32 {
        if let reply = replies.first {
            guard send(reply) else { return 0 }
            server.metrics?.sentReply(bytes: reply.payloadCount)
            replies.removeFirst()
            queuedBytes -= reply.payloadCount
            if outputBacklogged, replies.count <= server.limits.pauseReplies / 2 {
                // The queue drained: the output that waited in the link goes on (and what is
                // due later is the network timer's again).
                deliverOutput(at: server.clock.now)
                server.networkHolds(self)
            }
            updateInputPause()
        } else if let (code, reason) = pendingClose {
            // Once only: lws now sends the close frame and waits for the peer's; a second -1
            // would cut the connection at once, and with the peer's input still unread the
            // kernel answers with a reset that destroys the close frame (and the error before it).
            pendingClose = nil
            socket.setCloseReason(code, reason)
            return -1
        } else if isFrameDue, !isClosing {
            if let (id, message) = frameToSend() {
                guard send(message) else { return 0 }
                lastFrame = id
                stats.framesOut += 1
                server.metrics?.sentFrame(bytes: message.payloadCount)
            }
            deliveredFrame = nil
            isFrameDue = false
        } else {
            return 0
        }
        if !replies.isEmpty || pendingClose != nil || isFrameDue {
            socket.requestWritable()
        } else {
            outputSince = nil
        }
        return 0
    }

    /// The frame to send now, as this connection is sent it: with a link, only what it delivered
    /// (a newer frame may have been queued since), stamped; a delta when the connection holds
    /// the frame it applies to, else the whole frame.
    private func frameToSend() -> (id: UInt64, message: EncodedMessage)? {
        if let (frame, at) = deliveredFrame {
            return (frame.id, frame.message(after: lastFrame).appending("delivered", milliseconds: at * 1000))
        }
        guard link == nil, let frame = server.latestFrame(for: self) else { return nil }
        return (frame.id, frame.message(after: lastFrame))
    }

    /// Hands one message to libwebsockets if the kernel can take all of it now; otherwise marks
    /// the connection blocked (the server's retry tick asks again) and returns false.
    private func send(_ message: EncodedMessage) -> Bool {
        let length = message.payloadCount
        switch socket.sendRoom(for: length, limit: server.limits.sendBytes, estimate: &sendEstimate) {
        case .fits:
            break
        case .later:
            if blockedSince == nil {
                blockedSince = server.clock.now
                server.writeBlocked(self)
            }
            return false
        case .never:
            // Cannot happen with the replies and frames this server makes (all far below the
            // limit); refusing beats handing lws a write it would split.
            drop(1011, "message larger than the send limit", killAfter: 1)
            return false
        }
        blockedSince = nil
        outputSince = server.clock.now  // progress: the stall clock starts again
        let written = message.withBuffer { socket.writeText($0, headroom: message.headroom, count: length) }
        stats.bytesOut += length
        if !written {
            socket.killSoon()  // a socket error
        } else if socket.hasPartialWrite {
            // The room check is conservative, so this should not happen; if the kernel refused
            // part anyway (memory pressure), make sure a half-close cannot spin the loop: stop
            // reading (no EOF to see) and cut the connection once it drains or times out.
            server.partialWrites += 1
            socket.readInput(false)
            isClosing = true
            socket.kill(after: 5)
        }
        return true
    }

    // MARK: - In

    /// LWS_CALLBACK_RECEIVE: gathers fragments, enforces the size and rate limits, hands on whole
    /// messages. Returns -1 to close.
    func receive(_ bytes: UnsafeRawPointer?, _ count: Int) -> Int32 {
        if isClosing { return 0 }
        if socket.isFirstFragment {
            incoming.removeAll(keepingCapacity: incoming.capacity <= 4096)
            incomingIsBinary = socket.isBinary
        }
        if incoming.count + count > server.limits.messageBytes {
            stats.serverCloses(1009)
            socket.setCloseReason(1009, "message larger than 64 KiB")
            return -1
        }
        if let bytes, count > 0 {
            incoming.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        }
        guard socket.isFinalFragment else { return 0 }
        defer { incoming.removeAll(keepingCapacity: incoming.capacity <= 4096) }
        let now = server.clock.now
        stats.bytesIn += incoming.count
        if !inputBudget.spend(bytes: incoming.count, at: now) {
            let limits = server.limits
            let error = WireError(
                .rateLimited,
                "more than \(limits.messagesPerSecond) messages or \(limits.bytesPerSecond / 1024) KiB per second; closing")
            server.errorSent(error, to: id)
            server.metrics?.sent(.error(error))
            enqueue(ServerMessages.encode(.error(error), headroom: server.headroom))
            // The error first, then the close; reading stops now.
            socket.kill(after: 2)
            close(1008, "input rate limit")
            return 0
        }
        if link != nil {
            // The simulated network holds it; the server's network timer delivers it. An exact
            // copy: `incoming` keeps up to 4 KiB of capacity, which a held message must not pin.
            link!.holdInbound(incoming.withUnsafeBufferPointer { Array($0) }, binary: incomingIsBinary, at: now)
            server.networkHolds(self)
            updateInputPause()
            return 0
        }
        server.received(incoming, binary: incomingIsBinary, from: self, at: now)
        return 0
    }
}
