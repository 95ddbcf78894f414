extension Outbox {
    /// What this connection holds that the process-wide budget counts, in user space: queued
    /// replies and what its simulated network holds each way (the executor adds the kernel's
    /// share). Zero once closing: a closing outbox has dropped its queue and link, or sends what
    /// is left within its kill time (`OutboxBudgetTests.closingHoldsNothing`).
    public var heldBytes: Int {
        guard !isClosing else { return 0 }
        return replies.bytes + (link?.heldInboundBytes ?? 0) + (link?.heldOutboundBytes ?? 0)
    }

    /// The budget's verdict for this connection, one of the largest holders while the process
    /// is past the hard mark: `shed` drops everything held and closes with 1008 — the close frame
    /// if the socket still takes it, else a reset within a second (`resetOnClose`: the kernel
    /// frees the send queue at close instead of sending it on to a peer that does not read).
    /// Any other verdict changes nothing (`OutboxBudgetTests.shedDropsAndResets`).
    public mutating func overBudget(_ verdict: ProcessBudget.Verdict) -> [OutboxAction] {
        var out: [OutboxAction] = []
        guard verdict == .shed, !isClosing else { return out }
        out.append(.resetOnClose)
        drop(1008, Self.overBudgetReason, killAfter: 1, into: &out)
        return out
    }

    public static let overBudgetReason = "server over its memory budget"
}
