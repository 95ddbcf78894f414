/// What the server remembers of each client address at the door: the WebSocket connections it
/// holds open and a token bucket for the TLS handshakes it starts. Pure (the caller passes the
/// time); `PeerLimits` holds one behind a mutex for the whole group.
///
/// The table is bounded, as an attacker chooses how many addresses it shows: an entry equal to a
/// fresh one (no connection open, a full bucket) carries nothing and is dropped when the table
/// is full; if none is, the address seen longest ago with no connection open is forgotten (it
/// gets a fresh bucket back: gaining from that takes more than `capacity` addresses, each with
/// its own burst anyway). Addresses with connections open are never forgotten, so the table holds
/// at most `capacity` plus the addresses holding connections, which `--max-connections` bounds.
/// Held by `PeerTableTests`.
struct PeerTable {
    struct Entry {
        var open = 0
        var tokens: Double
        var seen: Double
    }

    let capacity: Int
    /// Handshakes a second per address, sustained, and the burst.
    let rate: Double
    let burst: Double
    private(set) var entries: [String: Entry] = [:]

    init(capacity: Int, rate: Double, burst: Double) {
        precondition(capacity >= 1 && rate > 0 && burst >= 1)
        self.capacity = capacity
        self.rate = rate
        self.burst = burst
    }

    func openConnections(of peer: String) -> Int { entries[peer]?.open ?? 0 }

    /// Takes one handshake token from `peer`'s bucket; false (nothing taken) when it is empty.
    mutating func takeHandshake(_ peer: String, at now: Double) -> Bool {
        var entry = refilled(peer, at: now)
        guard entry.tokens >= 1 else {
            store(peer, entry, at: now)
            return false
        }
        entry.tokens -= 1
        store(peer, entry, at: now)
        return true
    }

    mutating func opened(_ peer: String, at now: Double) {
        var entry = refilled(peer, at: now)
        entry.open += 1
        store(peer, entry, at: now)
    }

    mutating func closed(_ peer: String, at now: Double) {
        guard var entry = entries[peer] else { return }
        entry.open = max(0, entry.open - 1)
        entries[peer] = entry
        if entry.open == 0 && isFresh(entry, at: now) { entries[peer] = nil }
    }

    private func refilled(_ peer: String, at now: Double) -> Entry {
        guard var entry = entries[peer] else { return Entry(tokens: burst, seen: now) }
        entry.tokens = min(burst, entry.tokens + max(0, now - entry.seen) * rate)
        entry.seen = now
        return entry
    }

    private func isFresh(_ entry: Entry, at now: Double) -> Bool {
        entry.open == 0 && entry.tokens + max(0, now - entry.seen) * rate >= burst
    }

    private mutating func store(_ peer: String, _ entry: Entry, at now: Double) {
        if entries[peer] == nil && entries.count >= capacity { makeRoom(at: now) }
        entries[peer] = entry
    }

    /// Drops every entry equal to a fresh one; if that frees nothing, the one seen longest ago
    /// with no connection open.
    private mutating func makeRoom(at now: Double) {
        entries = entries.filter { !isFresh($0.value, at: now) }
        guard entries.count >= capacity else { return }
        let oldest = entries.filter { $0.value.open == 0 }.min { $0.value.seen < $1.value.seen }
        if let oldest { entries[oldest.key] = nil }
    }
}
