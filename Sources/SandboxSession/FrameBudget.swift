/// One service thread's frame budget: when its sessions ask for more frames a second than the
/// thread can make in `share` of its time, every session is cut to the same number of frames a
/// second (max-min fair: a session that asks for less than the equal share keeps all of its
/// rate, the rest share what is left equally), and within a phase the sessions that tick take
/// turns (round robin), so many sessions at 240 fps cannot starve one at 60. Below the budget
/// every session ticks at its rate: nothing changes.
///
/// The executor tells it what frames cost its thread (`spent`, in CPU time: the ticks, carrying
/// their actions out, encoding the frames) and how many sessions each tick advanced, and asks for
/// each tick's `window`. Every `measureSeconds` it works out the cost of one session's tick and
/// how many sessions tick at each rate — from the ticks made, so a session that is not ticked
/// because nobody can take its frames asks for nothing — and from them each rate's share.
/// Pure, so the rules are tested without a clock (`FrameBudgetTests`).
public struct FrameBudget: Equatable, Sendable {
    /// The part of each second the thread may spend making frames; the rest is for the socket
    /// writes (not measured), messages and pings.
    public let share: Double
    /// How long the cost and the sessions are measured over before they are used (s).
    public static let measureSeconds = 0.25
    /// Seconds one session's tick costs, as last measured (nil until then).
    public private(set) var cost: Double?
    /// The part of its frames a session at each rate is given (absent: all).
    private var fractions: [Int: Double] = [:]
    private var spentSeconds = 0.0
    private var ticks: [Int: Int] = [:]
    private var since: Double?
    private var cursors: [Key: Cursor] = [:]

    private struct Key: Hashable {
        let fps: Int
        let phase: Int
    }

    /// Where the next window of a phase starts, and the part of a tick it has earned.
    private struct Cursor: Equatable {
        var next = 0
        var credit = 0.0
    }

    public init(share: Double = 0.75) {
        precondition(share > 0 && share <= 1, "a share of the thread's time")
        self.share = share
    }

    /// The thread spent `seconds` on frames at `now`, advancing `ticks` sessions at `fps`.
    public mutating func spent(_ seconds: Double, ticks: Int = 0, fps: Int = 0, at now: Double) {
        guard seconds.isFinite, seconds >= 0, now.isFinite else { return }
        let start = since ?? now
        since = start
        spentSeconds += seconds
        if ticks > 0 { self.ticks[fps, default: 0] += ticks }
        let elapsed = now - start
        guard elapsed >= Self.measureSeconds else { return }
        let total = self.ticks.values.reduce(0, +)
        if total > 0 {
            let cost = spentSeconds / Double(total)
            self.cost = cost
            // Ticks a second the sessions ask for: those made, over the part each rate had.
            var demand = 0.0
            for (rate, count) in self.ticks where rate > 0 { demand += Double(count) / elapsed / fraction(fps: rate) }
            if demand < share / cost * 0.999 {
                // Every rate's demand fits, so max-min fair cuts none (`FrameBudgetTests`): nothing
                // to work out, nothing allocated each period (docs/PERFORMANCE.md "Allocations").
                fractions = [:]
            } else {
                // Sessions ticking at each rate: ticks a second over the rate and the part it had.
                var sessions: [Int: Double] = [:]
                for (rate, count) in self.ticks where rate > 0 {
                    sessions[rate] = Double(count) / elapsed / (Double(rate) * fraction(fps: rate))
                }
                fractions = Self.fractions(capacity: share / cost, sessions: sessions)
            }
        } else {
            fractions = [:]
        }
        self.ticks.removeAll(keepingCapacity: true)
        (spentSeconds, since) = (0, now)
    }

    /// The part of its frames a session at `fps` is given now (0…1).
    public func fraction(fps: Int) -> Double { fractions[fps] ?? 1 }

    /// Max-min fair: `capacity` ticks a second shared by `sessions` at each rate; a rate below
    /// the level keeps all its frames, the others get the level.
    static func fractions(capacity: Double, sessions: [Int: Double]) -> [Int: Double] {
        var capacity = capacity
        var remaining = sessions.values.reduce(0, +)
        var fractions: [Int: Double] = [:]
        for (rate, count) in sessions.sorted(by: { $0.key < $1.key }) where count > 0 {
            let level = capacity / remaining
            if Double(rate) > level {
                fractions[rate] = max(level / Double(rate), 0)
            } else {
                capacity -= Double(rate) * count
                remaining -= count
            }
        }
        return fractions
    }

    /// The sessions of `fps`'s `phase` (`sessions` of them) that this tick advances.
    public mutating func window(fps: Int, phase: Int, sessions: Int) -> TickWindow {
        let key = Key(fps: fps, phase: phase)
        let fraction = fraction(fps: fps)
        guard fraction < 1, sessions > 0 else {
            cursors[key] = nil
            return .all
        }
        var cursor = cursors[key, default: Cursor()]
        cursor.credit = min(cursor.credit + Double(sessions) * fraction, Double(sessions))
        let count = Int(cursor.credit)
        cursor.credit -= Double(count)
        let start = cursor.next % sessions
        cursor.next = (start + count) % sessions
        cursors[key] = cursor
        return TickWindow(start: start, count: count)
    }
}
