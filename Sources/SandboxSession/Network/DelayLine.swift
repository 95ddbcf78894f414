/// One direction of a simulated link: items held until their due time and handed out in the
/// order they came in (it is TCP: a message held longer holds up the ones behind it).
///
/// The delay is a function of the time a message is sent, not a draw per message: it moves
/// linearly between targets drawn every `knotSpacing` seconds, uniform in delay ± jitter (a
/// queue building up and draining, as on a real path). Drawn per message, the jitter made the
/// in-order delivery wait for the slowest of its neighbours, so the delay a stream saw grew
/// with its message rate (150 ± 80 ms: a mean of 179, 191 and 201 ms at 60, 120 and 240 Hz —
/// the iOS review) while a lone ping saw 150. Now every message rate sees the same delay, and a
/// message waits behind another only when the delay falls faster than time passes (jitter over
/// 125 ms). The targets come from the seed and the knot's index alone, so the same seed gives
/// the same delays whatever the traffic.
struct DelayLine<Item> {
    struct Held {
        let due: Double
        let item: Item
        let bytes: Int
    }

    /// Seconds between two delay targets.
    static var knotSpacing: Double { 0.25 }

    /// A FIFO as an array and a head index (amortised O(1), no package: the fuzz harness builds
    /// this module alone).
    private var items: [Held?] = []
    private var head = 0
    private let seed: UInt64
    private var lastDue = -Double.infinity
    private(set) var heldBytes = 0

    init(seed: UInt64) { self.seed = seed }

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }
    var nextDue: Double? { isEmpty ? nil : items[head]!.due }

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

    /// Holds `item` from `now` (s) under `conditions`; returns its due time.
    @discardableResult
    mutating func hold(_ item: Item, bytes: Int, at now: Double, under conditions: NetworkConditions) -> Double {
        let due = max(lastDue, now + delay(at: now, under: conditions))
        lastDue = due
        items.append(Held(due: due, item: item, bytes: bytes))
        heldBytes += bytes
        return due
    }

    /// Everything due by `now`, in order.
    mutating func take(dueBy now: Double) -> [Held] {
        var out: [Held] = []
        while head < items.count, let first = items[head], first.due <= now {
            out.append(first)
            items[head] = nil
            head += 1
            heldBytes -= first.bytes
        }
        compact()
        return out
    }

    /// Removes the oldest held item that `isDroppable` accepts; with `sparingNewest`, never the
    /// newest such item. Returns whether one was removed. O(n), only on the byte bound's path.
    mutating func dropOldest(where isDroppable: (Item) -> Bool, sparingNewest: Bool) -> Bool {
        let matching = (head..<items.count).filter { isDroppable(items[$0]!.item) }
        guard let first = matching.first, !sparingNewest || matching.count > 1 else { return false }
        heldBytes -= items[first]!.bytes
        items.remove(at: first)
        return true
    }

    private mutating func compact() {
        if head == items.count {
            items.removeAll(keepingCapacity: items.count <= 1024)
            head = 0
        } else if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
