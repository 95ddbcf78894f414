import PropertyBased
import Testing

@testable import TransitionCore

/// FiniteOutputTests' hostile gestures on configurations that also set the release fields at
/// their edges: the projection, the rubber band, every pitfall. Every output stays finite,
/// progress stays in 0…1, and a completion rests within `longestAnimation` (plus one tick).
@Suite("Finite outputs with release rules")
struct ReleaseRuleFiniteTests {
    static let extra = Gen.int(in: 0...15).array(of: 8)

    static func configuration(_ c: [Int], _ e: [Int]) throws -> TransitionConfiguration {
        func pick<T>(_ i: Int, _ options: [T]) -> T { options[e[i] % options.count] }
        var configuration = try FiniteOutputTests.configuration(c)
        configuration.releaseRule = pick(0, ReleaseRule.allCases)
        configuration.decelerationRate = pick(
            1, [Double.leastNonzeroMagnitude, 0.5, 0.99, 0.998, 1 - Double.ulpOfOne / 2])
        configuration.rubberBand = pick(2, [nil, Double.leastNonzeroMagnitude, 0.55, 1])
        // Every subset of the four pitfalls.
        configuration.pitfalls = Set(
            Pitfall.allCases.enumerated().filter { e[3] & (1 << $0.offset) != 0 }.map(\.element))
        configuration.completionDamping = pick(4, [0.05, 1, 10])
        configuration.driver = pick(5, TransitionDriver.allCases)
        configuration.propertyAnimator = PropertyAnimatorSettings(
            curve: pick(6, [.linear, .easeIn, .cubicBezier(CubicBezier(x1: 0, y1: -5, x2: 1, y2: 5))]),
            scrubsLinearly: e[7] % 2 == 0, durationFactor: pick(7, [0, 1e-9, 10, 0.5]),
            pausesOnCompletion: e[6] % 2 == 1)
        try configuration.validate()
        return configuration
    }

    @Test func everyAcceptedInputKeepsEveryOutputFiniteAndTheCompletionEnds() async {
        await propertyCheck(
            count: 300, input: FiniteOutputTests.steps, FiniteOutputTests.choices, Self.extra, Gen.int(in: 0...3)
        ) { steps, choices, extra, start in
            let configuration = try! Self.configuration(choices, extra)
            var engine = try! InteractiveTransition(configuration: configuration)
            var time = FiniteOutputTests.starts[start]
            var animationStart: Double?
            for raw in steps {
                let step = raw as FiniteOutputTests.Step
                time += FiniteOutputTests.step(step.dtPick, step.dt)
                let phases: [(PointerEvent.Phase, Int)] = [(.down, 0), (.up, 0), (.cancel, 0), (.down, 1), (.up, 1)]
                let (phase, pointer) = step.phase < phases.count ? phases[step.phase] : (.move, 0)
                let event = PointerEvent(
                    phase, x: FiniteOutputTests.coordinate(step.xPick, step.x),
                    y: FiniteOutputTests.coordinate(step.yPick, step.y), time: time, pointerID: pointer)
                let before = engine
                do {
                    let reaction = try engine.handle(event)
                    for case let .released(decision) in reaction.events {
                        #expect(decision.progress.isFinite && decision.velocity.isFinite)
                        #expect(decision.projected?.isFinite ?? (configuration.releaseRule == .threshold))
                    }
                } catch {
                    #expect(engine == before, "a refused \(event) changed the engine")
                }
                #expect(FiniteOutputTests.allFinite(FiniteOutputTests.numbers(engine.frame())))
                #expect(engine.progress >= 0 && engine.progress <= 1)
                if engine.phase.isAnimating,
                    !before.phase.isAnimating || before.completionEndTime != engine.completionEndTime
                {
                    animationStart = engine.time
                }
                if let end = engine.completionEndTime, let animationStart {
                    // Within one rounding of the sum: the end is computed as start + duration in
                    // another order (seed "56Itpl8TNXYFQjPYrCI6pbGhHdOraJ8oZZ/bKbL417Q=" differs in the last digit).
                    #expect(end <= animationStart + configuration.longestAnimation + 1e-9)
                }
            }
            guard engine.phase.isAnimating else { return }
            let base = engine.time
            let tick = max(1.0 / 60, configuration.longestAnimation / 200)
            let limit = Int((configuration.longestAnimation / tick).rounded(.up)) + 1
            var n = 0
            while engine.phase.isAnimating && n < limit + 1 {
                n += 1
                _ = engine.advance(to: base + Double(n) * tick)
                #expect(FiniteOutputTests.allFinite(FiniteOutputTests.numbers(engine.frame())))
                #expect(engine.progress >= 0 && engine.progress <= 1)
            }
            #expect(!engine.phase.isAnimating)
        }
    }
}
