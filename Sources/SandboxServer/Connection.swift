import CLibWebSockets
import DequeModule

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
    let wsi: OpaquePointer
    unowned let server: SandboxServer
    /// The session this connection drives or watches; nil for a viewer whose session ended.
    var session: Session?
    var isDriver = false
    /// The last accepted pointer `seq` (strictly increasing per connection).
    var lastSeq: Int?
    /// When (server clock, s) the connection opened.
    let openedAt: Double

    // Service-thread only (see SandboxServer): no dynamic exclusivity bookkeeping needed.
    @exclusivity(unchecked) private var replies = Deque<JSONWriter>()
    @exclusivity(unchecked) private var queuedBytes = 0
    @exclusivity(unchecked) private var isFrameDue = false
    private var incoming: [UInt8] = []
    private var incomingIsBinary = false
    private var pendingClose: (code: UInt32, reason: String)?
    /// Set once the connection is being closed: nothing more is read, queued or sent.
    private(set) var isClosing = false
    /// Since when (server clock, s) a write has been waiting for room; nil while writes flow.
    private(set) var blockedSince: Double?
    /// Since when output has waited without a write (server clock, s); nil when nothing waits.
    private var outputSince: Double?
    private var inputBudget: InputBudget
    /// Reading is paused while too many replies wait (see `enqueue`).
    private var isInputPaused = false

    init(wsi: OpaquePointer, server: SandboxServer, at now: Double) {
        self.wsi = wsi
        self.server = server
        openedAt = now
        inputBudget = InputBudget(limits: server.limits, at: now)
    }

    // MARK: - Out

    func enqueue(_ message: JSONWriter) {
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
            lws_rx_flow_control(wsi, 0)
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
    func close(_ code: UInt32, _ reason: String) {
        guard !isClosing else { return }
        pendingClose = (code, reason)
        isClosing = true
        resumeInput()
        requestWrite()
    }

    /// Closes at once, dropping what is queued: a close frame if the socket takes it within
    /// `killAfter` seconds, else the connection is cut.
    func drop(_ code: UInt32, _ reason: String, killAfter seconds: Int32) {
        guard !isClosing else { return }
        replies.removeAll()
        queuedBytes = 0
        isFrameDue = false
        pendingClose = (code, reason)
        isClosing = true
        // Input is read and discarded from now on: closing a socket with unread input sends a
        // reset, which would destroy the close frame (and the error before it) at the peer.
        resumeInput()
        clws_kill_after(wsi, seconds)
        requestWrite()
    }

    private func resumeInput() {
        if isInputPaused {
            isInputPaused = false
            lws_rx_flow_control(wsi, 1)
        }
    }

    private func requestWrite() {
        // While blocked, the server's retry tick asks for WRITEABLE: asking now would only bring
        // a callback that finds no room.
        if blockedSince == nil { lws_callback_on_writable(wsi) }
    }

    /// The server's retry tick, after the room check said no: ask again for WRITEABLE. Returns
    /// false once the connection is no longer blocked.
    func retryBlockedWrite() -> Bool {
        guard blockedSince != nil else { return false }
        lws_callback_on_writable(wsi)
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
        replies.removeAll()
        queuedBytes = 0
        clws_kill_soon(wsi)
    }

    /// LWS_CALLBACK_SERVER_WRITEABLE: at most one write per call. Returns -1 to close.
    /// Order: queued replies, then a pending close, then the latest frame (none while closing).
    func writable() -> Int32 {
        if let reply = replies.first {
            guard send(reply) else { return 0 }
            replies.removeFirst()
            queuedBytes -= reply.payloadCount
            let limits = server.limits
            if isInputPaused, !isClosing, replies.count <= limits.pauseReplies / 2, queuedBytes <= limits.pauseBytes / 2 {
                isInputPaused = false
                lws_rx_flow_control(wsi, 1)
            }
        } else if let (code, reason) = pendingClose {
            // Once only: lws now sends the close frame and waits for the peer's; a second -1
            // would cut the connection at once, and with the peer's input still unread the
            // kernel answers with a reset that destroys the close frame (and the error before it).
            pendingClose = nil
            var bytes = Array(reason.utf8.prefix(123))
            lws_close_reason(wsi, lws_close_status(rawValue: code), &bytes, bytes.count)
            return -1
        } else if isFrameDue, !isClosing, let session {
            let frame = session.encodedCurrentFrame()
            guard send(frame.writer) else { return 0 }
            isFrameDue = false
        } else {
            return 0
        }
        if !replies.isEmpty || pendingClose != nil || isFrameDue {
            lws_callback_on_writable(wsi)
        } else {
            outputSince = nil
        }
        return 0
    }

    /// Hands one message to libwebsockets if the kernel can take all of it now; otherwise marks
    /// the connection blocked (the server's retry tick asks again) and returns false.
    private func send(_ message: JSONWriter) -> Bool {
        let length = message.payloadCount
        switch SendRoom.check(wsi, payload: length, limit: server.limits.sendBytes) {
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
        let headroom = message.headroom
        var message = message
        let written = message.withPayload { clws_write_text(wsi, $0 + headroom, length) }
        if written < length {
            clws_kill_soon(wsi)  // a socket error
        } else if lws_partial_buffered(wsi) != 0 {
            // The room check is conservative, so this should not happen; if the kernel refused
            // part anyway (memory pressure), make sure a half-close cannot spin the loop: stop
            // reading (no EOF to see) and cut the connection once it drains or times out.
            server.partialWrites += 1
            lws_rx_flow_control(wsi, 0)
            isClosing = true
            clws_kill_after(wsi, 5)
        }
        return true
    }

    // MARK: - In

    /// LWS_CALLBACK_RECEIVE: gathers fragments, enforces the size and rate limits, hands on whole
    /// messages. Returns -1 to close.
    func receive(_ bytes: UnsafeRawPointer?, _ count: Int) -> Int32 {
        if isClosing { return 0 }
        if lws_is_first_fragment(wsi) != 0 {
            incoming.removeAll(keepingCapacity: incoming.capacity <= 4096)
            incomingIsBinary = lws_frame_is_binary(wsi) != 0
        }
        if incoming.count + count > server.limits.messageBytes {
            var reason = Array("message larger than 64 KiB".utf8)
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, &reason, reason.count)
            return -1
        }
        if let bytes, count > 0 {
            incoming.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return 0 }
        defer { incoming.removeAll(keepingCapacity: incoming.capacity <= 4096) }
        let now = server.clock.now
        if !inputBudget.spend(bytes: incoming.count, at: now) {
            let limits = server.limits
            enqueue(ServerMessages.error(WireError(
                .rateLimited,
                "more than \(limits.messagesPerSecond) messages or \(limits.bytesPerSecond / 1024) KiB per second; closing"),
                headroom: server.headroom))
            // The error first, then the close; reading stops now.
            clws_kill_after(wsi, 2)
            close(1008, "input rate limit")
            return 0
        }
        if incomingIsBinary {
            enqueue(ServerMessages.error(WireError(.binary, "binary messages are not part of the protocol; send JSON text"), headroom: server.headroom))
        } else {
            server.handle(incoming, from: self, at: now)
        }
        return 0
    }
}

extension JSONWriter {
    /// Runs `body` with a pointer to the buffer start (headroom included), as lws_write wants.
    mutating func withPayload<R>(_ body: (UnsafeMutablePointer<UInt8>) -> R) -> R {
        withUnsafeMutableBytes { body($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
    }
}

