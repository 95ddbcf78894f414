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
    /// Reading is paused while too many replies wait (see `enqueue`).
    private var isInputPaused = false
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

    func enqueue(_ message: EncodedMessage) {
        guard !isClosing else { return }
        let limits = server.limits
        if replies.count >= limits.queuedReplies || queuedBytes + message.payloadCount > limits.queuedBytes {
            // The peer does not read. Free what it left unread now, and do not wait for a
            // WRITEABLE that may never come: a polite 1008 if it can still be sent, a kill soon.
            drop(1008, "too many unread replies", killAfter: 2)
            return
        }
        replies.append(message)
        queuedBytes += message.payloadCount
        if outputSince == nil { outputSince = server.clock.now }
        if !isInputPaused && (replies.count >= limits.pauseReplies || queuedBytes >= limits.pauseBytes) {
            // A client that sends faster than it reads is throttled like TCP would: stop reading
            // its input until it has read most of its replies (lws keeps the unread rest).
            isInputPaused = true
            socket.readInput(false)
        }
        requestWrite()
    }

    func frameDue() {
        guard !isClosing else { return }
        if outputSince == nil { outputSince = server.clock.now }
        isFrameDue = true
        requestWrite()
    }

    /// Closes politely: the close frame goes out at the next WRITEABLE (after nothing else).
    func close(_ code: Int, _ reason: String) {
        guard !isClosing else { return }
        pendingClose = (code, reason)
        isClosing = true
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
        pendingClose = (code, reason)
        isClosing = true
        stats.serverCloses(code)
        // Input is read and discarded from now on: closing a socket with unread input sends a
        // reset, which would destroy the close frame (and the error before it) at the peer.
        resumeInput()
        socket.kill(after: seconds)
        requestWrite()
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
            let limits = server.limits
            if isInputPaused, !isClosing, replies.count <= limits.pauseReplies / 2, queuedBytes <= limits.pauseBytes / 2 {
                isInputPaused = false
                socket.readInput(true)
            }
        } else if let (code, reason) = pendingClose {
            // Once only: lws now sends the close frame and waits for the peer's; a second -1
            // would cut the connection at once, and with the peer's input still unread the
            // kernel answers with a reset that destroys the close frame (and the error before it).
            pendingClose = nil
            socket.setCloseReason(code, reason)
            return -1
        } else if isFrameDue, !isClosing {
            if let frame = server.latestFrame(for: self) {
                guard send(frame) else { return 0 }
                stats.framesOut += 1
                server.metrics?.sentFrame(bytes: frame.payloadCount)
            }
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

    /// Hands one message to libwebsockets if the kernel can take all of it now; otherwise marks
    /// the connection blocked (the server's retry tick asks again) and returns false.
    private func send(_ message: EncodedMessage) -> Bool {
        let length = message.payloadCount
        switch socket.sendRoom(for: length, limit: server.limits.sendBytes) {
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
        server.received(incoming, binary: incomingIsBinary, from: self, at: now)
        return 0
    }
}
