extension Outbox {
    /// A message being received has reached `total` bytes: past `messageBytes` the connection
    /// closes with 1009 at once (`OutboxTests.messageSizeBound`).
    public mutating func receiving(total: Int) -> [OutboxAction] {
        guard total > limits.messageBytes else { return [] }
        state = .closed
        return [.closing(code: 1009), .sendClose(code: 1009, reason: "message larger than 64 KiB")]
    }

    /// A whole client message at `now`: within the rate bound it goes to the session, or into
    /// the simulated network; past it, a `rate-limited` error, then a 1008 close, reading
    /// stopped (`OutboxTests.rateLimitErrorThenClose`).
    public mutating func received(_ bytes: [UInt8], binary: Bool, at now: Double) -> [OutboxAction] {
        var out: [OutboxAction] = []
        received(bytes, binary: binary, at: now, into: &out)
        return out
    }

    /// The same, appending to `out`: a connection gathers into storage it keeps, so that a
    /// message costs no array (`make alloc-count`).
    public mutating func received(_ bytes: [UInt8], binary: Bool, at now: Double, into out: inout [OutboxAction]) {
        guard !isClosing else { return }
        guard budget.spend(bytes: bytes.count, at: now) else {
            refuseOverRate(at: now, into: &out)
            return
        }
        if link != nil {
            // The simulated network holds it. An exact copy: the executor's buffer may keep spare
            // capacity, which a held message must not pin.
            link!.holdInbound(bytes.withUnsafeBufferPointer { Array($0) }, binary: binary, at: now)
            if let due = networkDue { out.append(.networkDue(due)) }
            updateInputPause(into: &out)
            return
        }
        out.append(.deliverToSession(bytes, binary: binary, arrived: nil))
    }

    /// Past the rate bound: a `rate-limited` error, then a 1008 close; reading stops now.
    mutating func refuseOverRate(at now: Double, into out: inout [OutboxAction]) {
        let rates = "\(limits.messagesPerSecond) messages or \(limits.bytesPerSecond / 1024) KiB"
        let error = WireError(.rateLimited, "more than \(rates) per second; closing")
        out.append(.rateLimited(error))
        enqueue(ServerMessages.encode(.error(error), headroom: headroom), startsFrames: false, at: now, into: &out)
        // The error first, then the close.
        out.append(.kill(after: 2))
        close(1008, "input rate limit", into: &out)
    }
}
