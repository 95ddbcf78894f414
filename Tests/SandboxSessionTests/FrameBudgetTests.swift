import Testing

@testable import SandboxSession

/// The frame budget: nothing changes below it; above it every session is cut to an equal
/// share (max-min), taken in turns; sessions not ticked (nobody can take their frames) ask for
/// nothing.
@Suite("FrameBudget") struct FrameBudgetTests {
    /// A budget that measured, over one period, `sessions` ticking at each rate at `cost`
    /// seconds a tick (all their frames).
    func measured(_ cost: Double, _ sessions: [Int: Int], share: Double = 0.5) -> FrameBudget {
        var budget = FrameBudget(share: share)
        let period = FrameBudget.measureSeconds
        budget.spent(0, at: 0)
        for (rate, count) in sessions {
            let ticks = Int((Double(count * rate) * period).rounded())
            budget.spent(cost * Double(ticks), ticks: ticks, fps: rate, at: 0)
        }
        budget.spent(0, at: period)
        return budget
    }

    @Test func unmeasuredOrUnderTheBudgetEverySessionTicks() {
        var budget = FrameBudget()
        #expect(budget.window(fps: 240, phase: 0, sessions: 1000) == .all)
        budget = measured(1e-6, [240: 1000, 60: 10])  // 500,000 ticks a second in half the thread
        #expect(budget.fraction(fps: 240) == 1 && budget.fraction(fps: 60) == 1)
        #expect(budget.window(fps: 240, phase: 0, sessions: 250) == .all)
    }

    @Test func theMeasureTakesAWholePeriodAndIgnoresNonsense() {
        var budget = FrameBudget()
        budget.spent(1, ticks: 1, fps: 60, at: 0)
        budget.spent(0, at: FrameBudget.measureSeconds / 2)
        #expect(budget.cost == nil)
        budget.spent(1, ticks: 1, fps: 60, at: FrameBudget.measureSeconds)
        #expect(budget.cost == 1)
        budget.spent(-1, at: 10)
        budget.spent(.nan, at: 10)
        #expect(budget.cost == 1)
    }

    /// A victim: 100 sessions at 240 fps and one at 60 on a thread that makes 10,000
    /// ticks a second in its share: the one at 60 keeps every frame, the rest share the rest.
    @Test func aSessionAskingLessThanTheEqualShareKeepsItsRate() {
        let budget = measured(50e-6, [240: 100, 60: 1])  // 0.5 / 50 µs = 10,000 a second
        #expect(budget.fraction(fps: 60) == 1)
        let level = (10_000.0 - 60) / 100
        #expect(abs(budget.fraction(fps: 240) - level / 240) < 1e-6)
    }

    /// Sessions that were not ticked (their sockets full) made no ticks: they ask for nothing,
    /// however many are listed, and the reading session keeps its rate.
    @Test func sessionsNotTickedAskForNothing() {
        let budget = measured(3e-3, [60: 1])  // a slow thread: 166 ticks a second
        #expect(budget.fraction(fps: 60) == 1)
        var windowed = budget
        #expect(windowed.window(fps: 240, phase: 0, sessions: 50) == .all)
    }

    /// Measured while cut, the sessions are counted whole: the cut does not deepen by itself.
    @Test func aCutIsStableWhileTheLoadIs() {
        var budget = measured(100e-6, [60: 100])  // 5,000 a second for 6,000 asked
        let fraction = budget.fraction(fps: 60)
        #expect(abs(fraction - 5_000.0 / 6_000) < 1e-6)
        let period = FrameBudget.measureSeconds
        let ticks = Int((6_000 * fraction * period).rounded())
        budget.spent(100e-6 * Double(ticks), ticks: ticks, fps: 60, at: period)
        budget.spent(0, at: 2 * period)
        #expect(abs(budget.fraction(fps: 60) - fraction) < 1e-3)
    }

    /// Over many periods every session of a phase ticks as often as the others, and the phase
    /// ticks its fraction of its sessions' frames.
    @Test func windowsTakeTurnsAndAddUpToTheFraction() {
        var budget = measured(100e-6, [60: 300])  // 18,000 asked, 5,000 a second made
        let fraction = budget.fraction(fps: 60)
        var ticks = Array(repeating: 0, count: 100)
        for _ in 0..<600 {
            let window = budget.window(fps: 60, phase: 1, sessions: 100)
            let count = window.count!
            for offset in 0..<count { ticks[(window.start + offset) % 100] += 1 }
        }
        let total = ticks.reduce(0, +)
        #expect(abs(Double(total) - 600 * 100 * fraction) <= 1)
        #expect(ticks.max()! - ticks.min()! <= 1)
    }

    @Test func backUnderTheBudgetThePhaseTicksWhole() {
        var budget = measured(100e-6, [60: 300])
        #expect(budget.window(fps: 60, phase: 0, sessions: 100).count != nil)
        let period = FrameBudget.measureSeconds
        budget.spent(100e-6 * 100, ticks: 100, fps: 60, at: period)  // 400 ticks a second now
        budget.spent(0, at: 2 * period)
        #expect(budget.window(fps: 60, phase: 0, sessions: 10) == .all)
    }
}
