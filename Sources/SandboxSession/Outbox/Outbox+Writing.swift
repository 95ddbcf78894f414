extension Outbox {
    /// The socket can write: at most one write per call. Order: queued replies, then a pending
    /// close (`sendClose`: end the callback with -1), then the latest frame (none while closing).
    /// `room` answers whether a message of that many bytes fits whole now; `latest` is the
    /// session's latest frame, read only when a frame is due without a simulated network.
    public mutating func writable(
        at now: Double, room: (Int) -> Room, latest: () -> FrameEncoding?
    ) -> [OutboxAction] {
        var out: [OutboxAction] = []
        writable(at: now, room: room, latest: latest, into: &out)
        return out
    }

    /// The same, appending to `out` (the live connection reuses one list: nothing allocated per frame).
    public mutating func writable(
        at now: Double, room: (Int) -> Room, latest: () -> FrameEncoding?, into out: inout [OutboxAction]
    ) {
        if let reply = replies.first {
            guard send(reply, frame: false, at: now, room: room, into: &out) else { return }
            replies.removeFirst()
            if outputBacklogged, replies.count <= limits.pauseReplies / 2 {
                // The queue drained: the output that waited in the link goes on (and what is
                // due later is the network scheduler's again).
                deliverOutput(at: now, into: &out)
                if let due = networkDue { out.append(.networkDue(due)) }
            }
            updateInputPause(into: &out)
        } else if case .closing(let close) = state {
            // Once only: the socket now sends the close frame and waits for the peer's.
            state = .closed
            out.append(.sendClose(code: close.code, reason: close.reason))
            return
        } else if isFrameDue, !isClosing {
            if let (id, message) = frameToSend(latest: latest) {
                guard send(message, frame: true, at: now, room: room, into: &out) else { return }
                lastFrame = id
            }
            deliveredFrame = nil
            isFrameDue = false
        } else {
            return
        }
        if !replies.isEmpty || isCloseFramePending || isFrameDue {
            out.append(.requestWritable)
        } else {
            outputSince = nil
        }
    }

    private var isCloseFramePending: Bool {
        if case .closing = state { true } else { false }
    }

    /// The frame to send now: with a link, only what it delivered (stamped); a delta when the
    /// connection holds the frame it applies to, else the whole frame (`OutboxTests.deltaAfterBase`).
    private func frameToSend(latest: () -> FrameEncoding?) -> (id: UInt64, message: EncodedMessage)? {
        if let (frame, at) = deliveredFrame {
            let message = frame.message(after: lastFrame, in: version)
            return (frame.id, message.appending("delivered", milliseconds: at * 1000))
        }
        guard link == nil, let frame = latest() else { return nil }
        return (frame.id, frame.message(after: lastFrame, in: version))
    }

    /// `write` if the socket can take all of the message now; otherwise `blocked` (once) or, for
    /// a message that never fits, 1011. Returns whether it was written.
    private mutating func send(
        _ message: EncodedMessage, frame: Bool, at now: Double, room: (Int) -> Room, into out: inout [OutboxAction]
    ) -> Bool {
        switch room(message.payloadCount) {
        case .fits:
            break
        case .later:
            if blockedSince == nil {
                blockedSince = now
                out.append(.blocked)
            }
            return false
        case .never:
            // Refusing beats handing the socket a write it would split.
            drop(1011, "message larger than the send limit", killAfter: 1, into: &out)
            return false
        }
        blockedSince = nil
        outputSince = now  // progress: the stall clock starts again
        out.append(.write(message, frame: frame))
        return true
    }
}
