/// Which of a phase's animating sessions a tick advances: `count` of them (nil: all) from the
/// `start`th in the phase's order, wrapping around.
public struct TickWindow: Equatable, Sendable {
    public var start: Int
    public var count: Int?

    public init(start: Int, count: Int?) {
        self.start = start
        self.count = count
    }

    public static let all = TickWindow(start: 0, count: nil)
}

/// One service thread's frame budget: when its sessions ask for more frames a second than the
/// thread can make in `share` of its time, every session is cut to the same number of frames a
/// second (max-min fair: a session that asks for less than the equal share keeps all of its
/// rate, the rest share what is left equally), and within a phase the sessions that tick take
/// turns (round robin), so many sessions at 240 fps cannot starve one at 60. Below the budget
/// every session ticks at its rate: nothing changes.
///
/// The executor measures with its clock what frames cost (`spent`: the ticks, carrying their
/// actions out, encoding the frames) and asks for each tick's `window`. Pure, so the rules are
/// tested without a clock (`FrameBudgetTests`).
public struct FrameBudget: Equatable, Sendable {
    /// The part of each second the thread may spend making frames; the rest is for the socket
    /// writes (not measured), messages and pings.
    public let share: Double
    /// How long the cost is measured over before it is used (s).
    public static let measureSeconds = 0.25
    /// Seconds one session's tick costs, as last measured (nil until then: every session ticks).
    public private(set) var cost: Double?
    private var spentSeconds = 0.0
    private var ticks = 0
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

    public init(share: Double = 0.5) {
        precondition(share > 0 && share <= 1, "a share of the thread's time")
        self.share = share
    }

    /// The thread spent `seconds` on frames at `now`, advancing `ticks` sessions. Every
    /// `measureSeconds` with ticks in them, the cost of one session's tick is measured again.
    public mutating func spent(_ seconds: Double, ticks: Int = 0, at now: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        if since == nil { since = now }
        spentSeconds += seconds
        self.ticks += ticks
        guard now - since! >= Self.measureSeconds, self.ticks > 0 else { return }
        cost = spentSeconds / Double(self.ticks)
        (spentSeconds, self.ticks, since) = (0, 0, now)
    }

    /// The part of its frames a session at `fps` is given (0…1) when `demand` sessions animate
    /// at each rate on this thread.
    public func fraction(fps: Int, demand: [Int: Int]) -> Double {
        guard let cost, cost > 0 else { return 1 }
        var capacity = share / cost  // session ticks a second
        var remaining = demand.values.reduce(0, +)
        for (rate, sessions) in demand.sorted(by: { $0.key < $1.key }) where sessions > 0 {
            let level = capacity / Double(remaining)
            if Double(rate) > level { return fps >= rate ? level / Double(fps) : 1 }
            if rate == fps { return 1 }
            capacity -= Double(rate * sessions)
            remaining -= sessions
        }
        return 1
    }

    /// The sessions of `fps`'s `phase` (`sessions` of them) that this tick advances.
    public mutating func window(fps: Int, phase: Int, sessions: Int, demand: [Int: Int]) -> TickWindow {
        let key = Key(fps: fps, phase: phase)
        let fraction = fraction(fps: fps, demand: demand)
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
