/// One direction of a simulated link: items held until their due time and handed out in the
/// order they came in (it is TCP: a message held longer holds up the ones behind it).
struct DelayLine<Item> {
    struct Held {
        let due: Double
        let item: Item
        let bytes: Int
        /// When it entered the line (s).
        let entered: Double
    }

    /// A FIFO as an array and a head index (amortised O(1), no package: the fuzz harness builds
    /// this module alone).
    private var items: [Held?] = []
    private var head = 0
    private var random: SplitMix64
    private var lastDue = -Double.infinity
    private(set) var heldBytes = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }
    var nextDue: Double? { isEmpty ? nil : items[head]!.due }

    /// Holds `item` from `now` (s) under `conditions`; returns its due time. One draw per item,
    /// active or not, would change every later draw when a link is switched off and on; so the
    /// generator is drawn only while jitter is on.
    @discardableResult
    mutating func hold(_ item: Item, bytes: Int, at now: Double, under conditions: NetworkConditions) -> Double {
        var delay = conditions.delayMs
        if conditions.jitterMs > 0 { delay += conditions.jitterMs * (2 * random.unit() - 1) }
        let due = max(lastDue, now + max(delay, 0) / 1000)
        lastDue = due
        items.append(Held(due: due, item: item, bytes: bytes, entered: now))
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
