/// A connection's input rate bound: two token buckets (messages and bytes) that refill at the
/// sustained rate up to a burst. A flood empties them; the caller then refuses and closes.
public struct InputBudget {
    private let messageRate: Double
    private let byteRate: Double
    private let messageBurst: Double
    private let byteBurst: Double
    private var messages: Double
    private var bytes: Double
    private var updated: Double

    public init(limits: ConnectionLimits, at now: Double) {
        messageRate = Double(limits.messagesPerSecond)
        byteRate = Double(limits.bytesPerSecond)
        messageBurst = messageRate * limits.burstSeconds
        byteBurst = max(byteRate * limits.burstSeconds, Double(limits.messageBytes))
        messages = messageBurst
        bytes = byteBurst
        updated = now
    }

    /// Takes one message of `count` bytes at `now` (seconds); false when over the bound.
    public mutating func spend(bytes count: Int, at now: Double) -> Bool {
        let elapsed = max(0, now - updated)
        updated = max(updated, now)
        messages = min(messageBurst, messages + elapsed * messageRate) - 1
        bytes = min(byteBurst, bytes + elapsed * byteRate) - Double(count)
        return messages >= 0 && bytes >= 0
    }

    /// Takes `count` bytes at `now` for what the connection's message made for others (its
    /// viewers' copies: `SessionHub.chargeFanOut`), from the byte bucket alone; false when over
    /// the bound (`OutboxFanOutTests`).
    public mutating func charge(bytes count: Int, at now: Double) -> Bool {
        let elapsed = max(0, now - updated)
        updated = max(updated, now)
        messages = min(messageBurst, messages + elapsed * messageRate)
        bytes = min(byteBurst, bytes + elapsed * byteRate) - Double(count)
        return bytes >= 0
    }
}
