import PropertyBased
import Testing

@testable import TransitionCore

/// Slow animations (`TransitionConfiguration.timeScale`): what runs by itself slows, what the
/// finger does is untouched. Random gestures on random release rules, drivers and curves,
/// played at 1 and at 0.1: the same events (the release decision among them) and the same
/// tracked progress at every pointer event; the completion takes 1/timeScale as long on the
/// display link and shows at t/timeScale what 1× shows at t.
@Suite("Slow animations")
struct TimeScaleTests {
    static let steps = PropertyTests.steps
    /// kind, release rule + fling, driver, completion curve.
    static let choices = Gen.int(in: 0...1_000_000)
    static let holds = Gen.double(in: 0...0.2)

    static func configuration(_ choice: Int, timeScale: Double) -> TransitionConfiguration {
        let kinds = TransitionKind.allCases
        var c = TransitionConfiguration(kind: kinds[choice % kinds.count])
        c.releaseRule = (choice / 10) % 2 == 0 ? .threshold : .projection
        c.flingVelocity = (choice / 20) % 3 == 0 ? 800 : nil
        c.driver = (choice / 60) % 2 == 0 ? .percentDriven : .propertyAnimator
        c.completionCurve = (choice / 120) % 2 == 0 ? .timing(.easeInEaseOut) : .spring
        c.completionDamping = (choice / 240) % 2 == 0 ? 1 : 0.3
        c.completionSpeed = [1, 0.5, 3][(choice / 480) % 3]
        c.timeScale = timeScale
        return c
    }

    @Test func theSameGestureDecidesAndTracksAlikeAndTheCompletionSlowsByTheScale() async {
        await propertyCheck(count: 200, input: Self.steps, Self.choices, Self.holds) { steps, choice, hold in
            var real = try! InteractiveTransition(configuration: Self.configuration(choice, timeScale: 1))
            var slow = try! InteractiveTransition(configuration: Self.configuration(choice, timeScale: 0.1))
            for event in PropertyTests.gesture(steps, hold: hold) {
                let a = try! real.handle(event)
                let b = try! slow.handle(event)
                #expect(a.events == b.events)  // began, released (outcome, reason, velocity) alike
                #expect(real.progress == slow.progress && real.phase == slow.phase)
                #expect(real.velocity == slow.velocity)
            }
            #expect(real.lastRelease == slow.lastRelease)
            guard let end1 = real.completionEndTime, let end01 = slow.completionEndTime else {
                #expect(real.completionEndTime == nil && slow.completionEndTime == nil)
                return
            }
            let release = real.time
            let length = end1 - release
            #expect(abs((end01 - release) - length / 0.1) <= 1e-9 * max(1, length / 0.1))
            // The picture at t on the 1× clock is the picture at t/0.1 on the slowed one (the end
            // itself below: (s + D) − s may round below D on one clock and not the other).
            for k in 0..<20 {
                let elapsed = length * Double(k) / 20
                _ = real.advance(to: release + elapsed)
                _ = slow.advance(to: release + elapsed / 0.1)
                #expect(abs(real.progress - slow.progress) <= 1e-9)
            }
            // Past the end by a hair: (s + D) − s may round below D.
            _ = real.advance(to: end1 + 1e-9)
            _ = slow.advance(to: end01 + 1e-9)
            #expect(real.phase == slow.phase && real.progress == slow.progress && real.phase.isAtRest)
        }
    }

    @Test("a slowed play lasts duration / timeScale; the pitfall's flash stays one refresh (run-loop time)")
    func playAndFlash() throws {
        var c = TransitionConfiguration(kind: .fade)
        c.timeScale = 0.25
        var engine = try InteractiveTransition(configuration: c)
        _ = try engine.play(at: 2)
        #expect(engine.completionEndTime == 2 + c.duration / 0.25)

        c = TransitionConfiguration(kind: .push)
        c.pitfalls = [.negativeCompletionSpeed]
        c.timeScale = 0.1
        engine = try InteractiveTransition(configuration: c)
        let g = Gesture.pan(dx: 60, over: 0.3, hold: 0.2)  // below the threshold, no velocity: cancels
        _ = try engine.apply(g.events)
        #expect(engine.phase == .cancelling)
        let run = engine.progress * c.duration / 0.1
        #expect(abs(try #require(engine.completionEndTime) - (g.time + run + Pitfall.modelValueFlash)) < 1e-12)
        _ = engine.advance(to: g.time + run + 0.01)  // inside the one-refresh flash: the end state
        #expect(engine.phase == .cancelling && engine.layers() == engine.animator.layers(at: engine.animator.duration))
    }

    @Test(
        "timeScale outside 0.05…1 is refused naming the field",
        arguments: [0, 0.049, 1.01, -1, 1e308, .infinity, .nan] as [Double])
    func refused(value: Double) {
        var c = TransitionConfiguration()
        c.timeScale = value
        #expect(throws: ConfigurationError.self) { try c.validate() }
        do { try c.validate() } catch { #expect(error.field == "timeScale") }
    }
}
