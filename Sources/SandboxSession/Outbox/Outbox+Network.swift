extension Outbox {
    /// What the connection sends and is sent from now on is held under these conditions; what
    /// is held already keeps its due time and its place (`OutboxTests.linkKeepsOrder`).
    public mutating func setLink(_ conditions: NetworkConditions) {
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
    public var networkDue: Double? {
        guard let link else { return nil }
        if outputBacklogged { return link.nextInboundDue }
        return link.nextDue
    }

    /// Output into the link, within the reply queue's byte bound: held and queued bytes together
    /// stay under `queuedBytes` (frames thinned, the newest kept: `NetworkLink`;
    /// `OutboxLinkTests.heldByteBound`).
    mutating func hold(_ item: NetworkLink.Outbound, at now: Double, into out: inout [OutboxAction]) {
        let room = limits.queuedBytes - replies.bytes
        guard link!.holdOutbound(item, at: now, room: room) == .held else {
            drop(1008, "too many unread replies", killAfter: 2, into: &out)
            return
        }
        if !item.isFrame { updateInputPause(into: &out) }
        if let due = networkDue { out.append(.networkDue(due)) }
    }

    /// The network scheduler: output due by `now` goes on (it left the session earlier), then
    /// the input due is handed to the session, one `deliverToSession` each, in order. The
    /// executor carries them out while the outbox stays open, then calls `deliveryEnded()`.
    public mutating func deliverNetwork(at now: Double) -> [OutboxAction] {
        var out: [OutboxAction] = []
        guard link != nil, !isClosing else { return out }
        isDelivering = true
        deliverOutput(at: now, into: &out)
        if isClosing {
            isDelivering = false
            return out
        }
        // A whole batch, whatever the session does meanwhile (a `configure` may turn the link
        // off: it is dropped once idle, in `deliveryEnded`); only closing stops it.
        for message in link!.takeInbound(dueBy: now) {
            out.append(.deliverToSession(message.bytes, binary: message.binary, arrived: message.arrived))
        }
        return out
    }

    /// The batch of `deliverNetwork` was carried out (or stopped by a close).
    public mutating func deliveryEnded() -> [OutboxAction] {
        isDelivering = false
        var out: [OutboxAction] = []
        guard link != nil, !isClosing else { return out }
        if link!.isIdle { link = nil }
        updateInputPause(into: &out)
        return out
    }

    /// Output due by `now`, as far as the reply queue takes it: messages stop at the queue's
    /// pause mark and wait in the link (`outputBacklogged`, input paused) until `writable`
    /// drains the queue (`OutboxTests.linkBacklogWaitsForQueue`).
    mutating func deliverOutput(at now: Double, into out: inout [OutboxAction]) {
        outputBacklogged = false
        guard link != nil, !isClosing else { return }
        while let due = link!.nextOutboundDue, due <= now {
            if replies.count >= limits.pauseReplies || replies.bytes >= limits.pauseBytes {
                outputBacklogged = true
                break
            }
            switch link!.takeFirstOutbound(dueBy: now)! {
            case .message(let message):
                queue(message, at: now, into: &out)
            case .framesStart(let message):
                queue(message, startsFrames: true, at: now, into: &out)
            case .frame(let frame):
                deliver(frame, at: now, into: &out)
            }
            if isClosing { return }
        }
        updateInputPause(into: &out)
    }

    /// A frame the link delivers: queued like a reply while the queue is short (in order with
    /// the messages around it, as TCP would deliver it); a reader that falls behind gets
    /// latest-wins instead, the newest delivered frame sent after the replies.
    private mutating func deliver(_ frame: FrameEncoding, at now: Double, into out: inout [OutboxAction]) {
        let message = frame.message(after: lastFrame, in: version)
        if replies.count < limits.pauseReplies / 2, replies.bytes + message.payloadCount <= limits.pauseBytes / 2 {
            deliveredFrame = nil
            // Chosen now: queued messages all reach the socket, in order.
            lastFrame = frame.id
            queue(message.appending("delivered", milliseconds: now * 1000), at: now, into: &out)
        } else {
            deliveredFrame = (frame, now)
            markFrameDue(at: now, into: &out)
        }
    }
}
