import TransitionCore

/// One direction of a simulated link: items held until their due time and handed out in the
/// order they came in (it is TCP: a message held longer holds up the ones behind it).
///
/// The delay is a function of the time a message is sent, not a draw per message: it moves
/// linearly between targets drawn every `knotSpacing` seconds, uniform in delay ± jitter (a
/// queue building up and draining, as on a real path). Drawn per message, the jitter made the
/// in-order delivery wait for the slowest of its neighbours, so the delay a stream saw grew
/// with its message rate (150 ± 80 ms: a mean of 179, 191 and 201 ms at 60, 120 and 240 Hz)
/// while a lone ping saw 150 (`NetworkLinkTests.everyMessageRateSeesTheSameDelay`). Now every message rate sees the same delay, and a
/// message waits behind another only when the delay falls faster than time passes (jitter over
/// 125 ms). The targets come from the seed and the knot's index alone, so the same seed gives
/// the same delays whatever the traffic.
struct DelayLine<Item> {
    struct Held {
        let due: Double
        let item: Item
        let bytes: Int
        let droppable: Bool
    }

    /// Seconds between two delay targets.
    static var knotSpacing: Double { 0.25 }
    /// What a held item costs beyond its payload (its slot, the array header of held input):
    /// counted, so a flood of 1-byte messages cannot hold much more than it is charged for.
    static var overheadBytes: Int { 64 }

    /// A FIFO as an array and a head index (amortised O(1), no package: the fuzz harness builds
    /// this module alone). nil: taken, or dropped where it stood (a tombstone, so a drop is O(1);
    /// those at the end go at once, `dropNewest`).
    private var items: [Held?] = []
    private var head = 0
    /// `items[0]`'s position since the line began (positions survive compaction).
    private var base = 0
    /// Positions of the droppable items (frames) still held, oldest first, from `droppableHead`
    /// (those before it were taken).
    private var droppable: [Int] = []
    private var droppableHead = 0
    private let seed: UInt64
    private var lastDue = -Double.infinity
    private(set) var heldBytes = 0
    /// Of `heldBytes`, what droppable items hold (frames: they give way; the rest cannot).
    private(set) var droppableBytes = 0
    private(set) var count = 0

    init(seed: UInt64) { self.seed = seed }

    var isEmpty: Bool { count == 0 }
    /// Slots from the head on, dropped ones included (`NetworkLinkTests.droppedFramesDoNotKeepTheirSlots`).
    var slots: Int { items.count - head }
    /// The position of the newest droppable item still held (a position counts every item held
    /// since the line began).
    var newestDroppable: Int? { droppable.count > droppableHead ? droppable.last : nil }
    /// The position the last `hold` gave its item.
    var newestPosition: Int { base + items.count - 1 }
    var nextDue: Double? { head < items.count ? items[head]!.due : nil }

    /// The one-way delay (s) of a message sent at `now` under `conditions`.
    func delay(at now: Double, under conditions: NetworkConditions) -> Double {
        var delay = conditions.delayMs
        if conditions.jitterMs > 0 {
            let position = max(now, 0) / Self.knotSpacing
            let knot = position.rounded(.down)
            let fraction = position - knot
            let index = knot < 0x1p62 ? UInt64(knot) : UInt64(1) << 62
            let before = target(index), after = target(index &+ 1)
            delay += conditions.jitterMs * (before + (after - before) * fraction)
        }
        return max(delay, 0) / 1000
    }

    /// The knot's target in [−1, 1): a counter-based draw (SplitMix64 of seed and index).
    private func target(_ index: UInt64) -> Double {
        var generator = SplitMix64(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
        return 2 * generator.unit() - 1
    }

    /// Holds `item` (`bytes` of payload) from `now` (s) under `conditions`; returns its due
    /// time. `droppable`: `dropNewest` may remove it (a frame).
    @discardableResult
    mutating func hold(
        _ item: Item, bytes: Int, at now: Double, under conditions: NetworkConditions, droppable: Bool = false
    ) -> Double {
        let due = max(lastDue, now + delay(at: now, under: conditions))
        lastDue = due
        if droppable { self.droppable.append(base + items.count) }
        let charged = bytes + Self.overheadBytes
        items.append(Held(due: due, item: item, bytes: charged, droppable: droppable))
        heldBytes += charged
        if droppable { droppableBytes += charged }
        count += 1
        return due
    }

    /// The oldest item due by `now`, if any (`take` in a loop, so a caller can stop early).
    mutating func takeFirst(dueBy now: Double) -> Held? {
        guard head < items.count, let first = items[head], first.due <= now else { return nil }
        items[head] = nil
        heldBytes -= first.bytes
        if first.droppable {
            // The oldest droppable position still listed is this one.
            droppableBytes -= first.bytes
            droppableHead += 1
        }
        count -= 1
        advance()
        return first
    }

    /// Everything due by `now`, in order.
    mutating func take(dueBy now: Double) -> [Held] {
        var out: [Held] = []
        while let next = takeFirst(dueBy: now) { out.append(next) }
        return out
    }

    /// Removes the newest droppable item still held, or with `sparingNewest` the one before it;
    /// returns whether one was removed. The oldest stay: they are on the path and arrive at their
    /// due time, whatever follows them (`NetworkLinkTests.framesFasterThanTheRoomArriveThinnedEvenly`).
    mutating func dropNewest(sparingNewest: Bool) -> Bool {
        let slot = droppable.count - (sparingNewest ? 2 : 1)
        guard slot >= droppableHead else { return false }
        let index = droppable.remove(at: slot) - base
        heldBytes -= items[index]!.bytes
        droppableBytes -= items[index]!.bytes
        count -= 1
        items[index] = nil
        // A dropped slot at the end goes, with any before it (the next hold takes its position
        // again: no one holds a dropped one's). Left there, every frame that gave way kept a slot
        // until the delay passed, uncharged: 6,000 a viewer at 2,000 frames a second through
        // 2 s ± 1 s (`NetworkLinkTests.droppedFramesDoNotKeepTheirSlots`). One in the middle
        // (a message after it) stays until the head passes it: at most two a held message.
        while items.count > head, items[items.count - 1] == nil { items.removeLast() }
        advance()
        return true
    }

    /// Moves the head past taken and dropped slots; frees the front now and then.
    private mutating func advance() {
        while head < items.count, items[head] == nil { head += 1 }
        if head == items.count {
            base += items.count
            items.removeAll(keepingCapacity: items.count <= 1024)
            head = 0
        } else if head > 64, head * 2 > items.count {
            base += head
            items.removeFirst(head)
            head = 0
        }
        if droppableHead > 64, droppableHead * 2 > droppable.count {
            droppable.removeFirst(droppableHead)
            droppableHead = 0
        }
    }
}
