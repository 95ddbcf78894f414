extension Outbox {
    /// The connection's last message went on to `bytes` more for other connections (its
    /// viewers: `SessionAction.charge`): taken from the byte bucket of its rate bound, past
    /// which it gets the same `rate-limited` error and 1008 close as a flood
    /// (`OutboxFanOutTests.fanOutPastTheBudgetCloses`).
    public mutating func chargeFanOut(bytes: Int, at now: Double) -> [OutboxAction] {
        var out: [OutboxAction] = []
        guard !isClosing, !budget.charge(bytes: bytes, at: now) else { return out }
        refuseOverRate(at: now, into: &out)
        return out
    }
}
