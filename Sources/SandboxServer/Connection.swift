import CLibWebSockets

/// One WebSocket connection: the driver of its own session or a viewer of another's.
/// Outgoing data is bounded: replies queue up to `maximumQueuedReplies`, frames never queue —
/// a connection only holds a "frame due" flag and is sent the session's latest frame when
/// libwebsockets says it can write (latest state wins).
final class Connection {
    let wsi: OpaquePointer
    unowned let server: SandboxServer
    /// The session this connection drives or watches; nil for a viewer whose session ended.
    var session: Session?
    var isDriver = false
    /// The last accepted pointer `seq` (strictly increasing per connection).
    var lastSeq: Int?

    static let maximumMessageBytes = 64 * 1024
    static let maximumQueuedReplies = 256

    // Service-thread only (see SandboxServer): no dynamic exclusivity bookkeeping needed.
    @exclusivity(unchecked) private var replies: [JSONWriter] = []
    @exclusivity(unchecked) private var replyHead = 0
    @exclusivity(unchecked) private var isFrameDue = false
    private var incoming: [UInt8] = []
    private var incomingIsBinary = false
    private var pendingClose: (code: UInt32, reason: String)?

    init(wsi: OpaquePointer, server: SandboxServer) {
        self.wsi = wsi
        self.server = server
    }

    // MARK: - Out

    func enqueue(_ message: JSONWriter) {
        guard pendingClose == nil else { return }
        if replies.count - replyHead >= Self.maximumQueuedReplies {
            close(1008, "too many unread replies")
            return
        }
        replies.append(message)
        lws_callback_on_writable(wsi)
    }

    func frameDue() {
        isFrameDue = true
        lws_callback_on_writable(wsi)
    }

    func close(_ code: UInt32, _ reason: String) {
        pendingClose = (code, reason)
        lws_callback_on_writable(wsi)
    }

    /// LWS_CALLBACK_SERVER_WRITEABLE: one write per call. Returns -1 to close.
    func writable() -> Int32 {
        if let (code, reason) = pendingClose {
            var bytes = Array(reason.utf8)
            lws_close_reason(wsi, lws_close_status(rawValue: code), &bytes, bytes.count)
            return -1
        }
        let written: Int32
        let length: Int
        if replyHead < replies.count {
            length = replies[replyHead].payloadCount
            let headroom = replies[replyHead].headroom
            written = replies[replyHead].withPayload { clws_write_text(wsi, $0 + headroom, length) }
            replyHead += 1
            if replyHead == replies.count {
                replies.removeAll(keepingCapacity: true)
                replyHead = 0
            }
        } else if isFrameDue, let session {
            isFrameDue = false
            let frame = session.encodedCurrentFrame()
            length = frame.writer.payloadCount
            let headroom = frame.writer.headroom
            written = frame.writer.withPayload { clws_write_text(wsi, $0 + headroom, length) }
        } else {
            return 0
        }
        if written < length { return -1 }
        if replyHead < replies.count || isFrameDue { lws_callback_on_writable(wsi) }
        return 0
    }

    // MARK: - In

    /// LWS_CALLBACK_RECEIVE: gathers fragments, enforces the size limit, hands on whole messages.
    /// Returns -1 to close.
    func receive(_ bytes: UnsafeRawPointer?, _ count: Int) -> Int32 {
        if lws_is_first_fragment(wsi) != 0 {
            incoming.removeAll(keepingCapacity: incoming.capacity <= 4096)
            incomingIsBinary = lws_frame_is_binary(wsi) != 0
        }
        if incoming.count + count > Self.maximumMessageBytes {
            var reason = Array("message larger than 64 KiB".utf8)
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, &reason, reason.count)
            return -1
        }
        if let bytes, count > 0 {
            incoming.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return 0 }
        if incomingIsBinary {
            enqueue(ServerMessages.error(WireError(.binary, "binary messages are not part of the protocol; send JSON text"), headroom: server.headroom))
        } else {
            server.handle(incoming, from: self)
        }
        incoming.removeAll(keepingCapacity: incoming.capacity <= 4096)
        return 0
    }
}

extension JSONWriter {
    /// Runs `body` with a pointer to the buffer start (headroom included), as lws_write wants.
    mutating func withPayload<R>(_ body: (UnsafeMutablePointer<UInt8>) -> R) -> R {
        withUnsafeMutableBytes { body($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
    }
}
