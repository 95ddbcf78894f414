import Testing

@testable import SandboxSession

/// The frame budget: nothing changes below it; above it every session is cut to an equal
/// share (max-min), taken in turns.
@Suite("FrameBudget") struct FrameBudgetTests {
    /// A budget that measured `cost` seconds a session tick.
    func measured(_ cost: Double, share: Double = 0.5) -> FrameBudget {
        var budget = FrameBudget(share: share)
        budget.spent(cost * 100, ticks: 100, at: 0)
        budget.spent(0, at: FrameBudget.measureSeconds)
        return budget
    }

    @Test func unmeasuredOrUnderTheBudgetEverySessionTicks() {
        var budget = FrameBudget()
        #expect(budget.window(fps: 240, phase: 0, sessions: 1000, demand: [240: 1000]) == .all)
        budget = measured(1e-6)  // 500,000 ticks a second in half the thread
        #expect(budget.fraction(fps: 240, demand: [240: 1000, 60: 10]) == 1)
        #expect(budget.window(fps: 240, phase: 0, sessions: 250, demand: [240: 1000, 60: 10]) == .all)
    }

    @Test func theMeasureTakesAWholePeriod() {
        var budget = FrameBudget()
        budget.spent(1, ticks: 1, at: 0)
        budget.spent(0, at: FrameBudget.measureSeconds / 2)
        #expect(budget.cost == nil)
        budget.spent(1, ticks: 1, at: FrameBudget.measureSeconds)
        #expect(budget.cost == 1)
        budget.spent(-1, at: 10)
        budget.spent(.nan, at: 10)
        #expect(budget.cost == 1)
    }

    /// The victim: many sessions at 240 fps and one at 60 on a thread that can make
    /// 10,000 ticks a second in its share: the one at 60 keeps every frame.
    @Test func aSessionAskingLessThanTheEqualShareKeepsItsRate() {
        let budget = measured(50e-6)  // 0.5 / 50 µs = 10,000 ticks a second
        let demand = [240: 100, 60: 1]
        #expect(budget.fraction(fps: 60, demand: demand) == 1)
        let level = (10_000.0 - 60) / 100
        #expect(abs(budget.fraction(fps: 240, demand: demand) - level / 240) < 1e-9)
    }

    @Test func equalRatesShareEqually() {
        let budget = measured(100e-6)  // 5,000 a second
        #expect(abs(budget.fraction(fps: 60, demand: [60: 100]) - 5_000.0 / 6_000) < 1e-9)
    }

    /// Over many periods every session of a phase ticks as often as the others, and the phase
    /// ticks its fraction of its sessions' frames.
    @Test func windowsTakeTurnsAndAddUpToTheFraction() {
        var budget = measured(100e-6)
        let demand = [60: 300]  // 18,000 asked, 5,000 a second made
        let fraction = budget.fraction(fps: 60, demand: demand)
        var ticks = Array(repeating: 0, count: 100)
        for _ in 0..<600 {
            let window = budget.window(fps: 60, phase: 1, sessions: 100, demand: demand)
            let count = window.count!
            for offset in 0..<count { ticks[(window.start + offset) % 100] += 1 }
        }
        let total = ticks.reduce(0, +)
        #expect(abs(Double(total) - 600 * 100 * fraction) <= 1)
        #expect(ticks.max()! - ticks.min()! <= 1)
    }

    @Test func backUnderTheBudgetThePhaseTicksWhole() {
        var budget = measured(100e-6)
        #expect(budget.window(fps: 60, phase: 0, sessions: 100, demand: [60: 300]).count != nil)
        #expect(budget.window(fps: 60, phase: 0, sessions: 10, demand: [60: 30]) == .all)
    }
}
