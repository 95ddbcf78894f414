import Testing

@testable import SandboxSession

/// The display link's pacing with phases, without a clock.
@Suite("Phased tick schedule") struct PhasedTickScheduleTests {
    let period = 1.0 / 30

    /// Handles targets on time and returns (phase, target time) of each tick.
    func onTime(_ schedule: inout PhasedTickSchedule, ticks: Int, occupied: @escaping (Int) -> Bool) -> [(Int, Double)]
    {
        var out: [(Int, Double)] = []
        var now = 0.0
        schedule.plan(now: now, occupied: occupied)
        for _ in 0..<ticks {
            now = schedule.due!
            if let phase = schedule.handle(at: now) { out.append((phase, now)) }
            schedule.plan(now: now, occupied: occupied)
        }
        return out
    }

    @Test func onTimeEveryOccupiedPhaseTicksOnceAPeriodAtItsOffset() {
        var schedule = PhasedTickSchedule(fps: 30, phases: 4, start: 0)
        let ticks = onTime(&schedule, ticks: 8) { $0 != 2 }  // phase 2 empty: not woken for
        #expect(ticks.map(\.0) == [1, 3, 0, 1, 3, 0, 1, 3])
        for (phase, time) in ticks {
            let offset = time.truncatingRemainder(dividingBy: period)
            #expect(abs(offset - Double(phase) * period / 4) < 1e-9 || abs(offset - period) < 1e-9)
        }
    }

    @Test func aTargetLessThanAPeriodLateTicksLateAndTheNextIsOnTime() {
        var schedule = PhasedTickSchedule(fps: 30, phases: 1, start: 0)
        schedule.plan(now: 0) { _ in true }
        #expect(schedule.due! == period)
        #expect(schedule.handle(at: period * 1.9) == 0)  // 0.9 period late: ticks
        schedule.plan(now: period * 1.9) { _ in true }
        #expect(abs(schedule.due! - 2 * period) < 1e-12)  // the next on schedule
    }

    /// A target handled more than a period late ticked, and so did
    /// the same phase's next target at once — twice for one period.
    @Test func aTargetAPeriodLateIsDroppedAndItsSuccessorTicksInstead() {
        var schedule = PhasedTickSchedule(fps: 30, phases: 4, start: 0)
        schedule.plan(now: 0) { $0 == 0 }
        let first = schedule.due!
        #expect(abs(first - period) < 1e-12)  // phase 0's first target: a period after the start
        let now = first + 1.5 * period
        #expect(schedule.handle(at: now) == nil)  // dropped
        schedule.plan(now: now) { $0 == 0 }
        #expect(abs(schedule.due! - (first + period)) < 1e-12)  // its successor, due at once
        #expect(schedule.handle(at: now) == 0)
        schedule.plan(now: now) { $0 == 0 }
        #expect(abs(schedule.due! - (first + 2 * period)) < 1e-12)
    }

    /// Whatever the lateness of each wake, a phase never ticks two targets that were both due
    /// at once: its previous tick came before its next target was due (the bug: a target a
    /// period late ticked, then its successor, already due too, ticked at the same moment).
    @Test func randomLatenessNeverTicksAPhaseTwiceForOneMoment() {
        var generator = SystemRandomNumberGenerator()
        for phases in [1, 2, 4, 32] {
            var schedule = PhasedTickSchedule(fps: 30, phases: phases, start: 0)
            let occupied: (Int) -> Bool = { phases == 1 || $0 % 3 != 1 }
            var now = 0.0
            schedule.plan(now: now, occupied: occupied)
            var lastTick: [Int: Double] = [:]  // phase → when it last ticked
            var ticks = 0
            for _ in 0..<3_000 {
                let due = schedule.due!
                let late = Bool.random(using: &generator) ? Double.random(in: 0...(2.5 * period), using: &generator) : 0
                now = max(now, due + late)
                if let phase = schedule.handle(at: now) {
                    #expect(occupied(phase))
                    if let previous = lastTick[phase] { #expect(previous < due, "phases \(phases)") }
                    lastTick[phase] = now
                    ticks += 1
                }
                schedule.plan(now: now, occupied: occupied)
            }
            #expect(ticks > 1_000)  // lateness drops some, not most
        }
    }
}
