import Testing

@testable import TransitionCore

/// UIKit's edge-swipe pop: its release projects the average velocity and acceleration of the
/// pan's last three samples over the transition's duration and pops past
/// `min(187.5 / width, 0.5)`; its completion lasts at most the duration, less at the release's
/// speed, on a cubic curve. Source: the decompile of iOS 26.1's UIKitCore
/// (github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore), `_UINavigationInteractiveTransitionBase`'s
/// `_updateStatistics:firstSample:finalSample:`, `popGesture:withRemainingDuration:shouldPopWithVelocity:`
/// and `handleNavigationTransition:`. Inferred (EdgePopRelease): the ease-out completion curve.
@Suite("Edge-swipe pop release")
struct EdgePopReleaseTests {
    static let duration = TransitionKind.push.defaultDuration

    /// The edge-swipe pop as a scene configures it: the push animator reversed, panned right
    /// over the container's width, 1:1 with the finger.
    static func popEngine(width: Double = 390, system: SystemGesture? = .edgePop) throws -> InteractiveTransition {
        var configuration = TransitionConfiguration(kind: .push)
        configuration.operation = .dismiss
        configuration.duration = duration
        configuration.container = Size(width: width, height: 844)
        configuration.distance = width
        configuration.pan.axis = .x
        configuration.pan.direction = .positive
        configuration.systemGesture = system
        return try InteractiveTransition(configuration: configuration)
    }

    /// Samples a steady 0.2/s: the averages are the velocity and no acceleration.
    static func steady(_ count: Int, velocity: Double = 0.2) -> EdgePopStatistics {
        var s = EdgePopStatistics(time: 0, displacement: 0, velocity: velocity)
        for i in 1..<count {
            s.add(time: Double(i) * 0.016, displacement: Double(i) * 0.016 * velocity, velocity: velocity, final: false)
        }
        return s
    }

    @Test("statistics: a three-sample average; the acceleration's change limited to ±5 per sample")
    func statistics() {
        var s = EdgePopStatistics(time: 0, displacement: 0, velocity: 0)
        s.add(time: 0.016, displacement: 0.01, velocity: 1, final: false)
        // (1 − 0) / 0.016 = 62.5/s², limited to 0 + 5; averaged with the first sample's 0.
        #expect(s.sampleCount == 2 && s.averageVelocity == 0.5 && s.averageAcceleration == 2.5)
        s.add(time: 0.032, displacement: 0.03, velocity: 1, final: false)
        s.add(time: 0.048, displacement: 0.05, velocity: 1, final: false)
        // The first sample (velocity 0) has left the window of three.
        #expect(s.sampleCount == 4 && s.averageVelocity == 1 && s.lastVelocity == 1)
        // An update under 10 ms after the last one, not moved: skipped.
        s.add(time: 0.050, displacement: 0.05, velocity: 9, final: true)
        #expect(s.sampleCount == 4 && s.lastVelocity == 1)
        // Under 10 ms but moved (over 1 ms): kept.
        s.add(time: 0.055, displacement: 0.06, velocity: 1, final: true)
        #expect(s.sampleCount == 5)
    }

    @Test("the decision: p + v̄·T + ½·ā·T² past min(187.5/width, 0.5)")
    func decision() {
        // 0.3 + 0.2·0.5 = 0.4: below a phone's 187.5/390 ≈ 0.481, past an iPad's 187.5/820 ≈ 0.229.
        let s = Self.steady(4)
        let phone = EdgePopRelease.decide(statistics: s, progress: 0.3, velocity: 0.2, duration: 0.5, width: 390)
        #expect(phone.outcome == .cancel && phone.reason == .projection && abs(phone.projected! - 0.4) < 1e-9)
        let tablet = EdgePopRelease.decide(statistics: s, progress: 0.3, velocity: 0.2, duration: 0.5, width: 820)
        #expect(tablet.outcome == .finish)
        #expect(abs(EdgePopRelease.threshold(width: 820) - 187.5 / 820) < 1e-12)
        // Narrower than 375 pt: the half.
        #expect(EdgePopRelease.threshold(width: 320) == 0.5)
        // Fewer than three samples: the average velocity's sign, after a change.
        let two = Self.steady(2, velocity: -0.1)
        let back = EdgePopRelease.decide(statistics: two, progress: 0.9, velocity: -0.1, duration: 0.5, width: 390)
        #expect(back.outcome == .cancel)
        let forward = EdgePopRelease.decide(
            statistics: Self.steady(2, velocity: 0.1), progress: 0.05, velocity: 0.1, duration: 0.5, width: 390)
        #expect(forward.outcome == .finish && forward.reason == .fling && forward.projected == nil)
        // No change after the pan began: no pop.
        let began = EdgePopStatistics(time: 0, displacement: 0, velocity: 5)
        let still = EdgePopRelease.decide(statistics: began, progress: 0.1, velocity: 5, duration: 0.5, width: 390)
        #expect(still.outcome == .cancel)
    }

    @Test("completion speed: max(remaining, T·|v|) — a still release takes the whole duration")
    func completionSpeed() {
        // At rest with 0.12 left: speed 0.12, so 0.12 · T / 0.12 = T.
        #expect(abs(EdgePopRelease.completionSpeed(progress: 0.88, velocity: 0, to: 1, duration: 0.5) - 0.12) < 1e-12)
        // 4/s over 0.5 s: speed 2, so 0.5 left takes 0.125 s.
        #expect(EdgePopRelease.completionSpeed(progress: 0.5, velocity: 4, to: 1, duration: 0.5) == 2)
        // Moving away from the outcome still counts its speed (|v|).
        #expect(EdgePopRelease.completionSpeed(progress: 0.3, velocity: 4, to: 0, duration: 0.5) == 2)
        // Slower than the remaining fraction: the remaining fraction (the whole duration).
        #expect(abs(EdgePopRelease.completionSpeed(progress: 0.4, velocity: 0.1, to: 0, duration: 0.5) - 0.4) < 1e-12)
    }

    @Test("a slow drag past the half, moved back a little before the lift, cancels")
    func slowPastHalfBack() throws {
        // 250 pt in 0.8 s (≈ 0.64), then 15 pt back in 50 ms: the last samples run backwards.
        var g = Gesture(at: Point(x: 6, y: 400))
        g.move(dx: 250, over: 0.8, steps: 50)
        g.move(dx: -15, over: 0.05, steps: 3)
        g.up()
        var e = try Self.popEngine()
        _ = try e.apply(g.events)
        let decision = try #require(e.lastRelease)
        #expect(decision.progress > 0.5 && decision.outcome == .cancel && decision.reason == .projection)
        #expect(try #require(decision.projected) < EdgePopRelease.threshold(width: 390))
    }

    @Test("held still at 0.3: an iPad pops (0.229), a phone does not (0.481)")
    func heldStill() throws {
        for (width, outcome) in [(820.0, ReleaseDecision.Outcome.finish), (390, .cancel)] {
            var g = Gesture(at: Point(x: 6, y: 400))
            g.move(dx: 0.3 * width, over: 1, steps: 60)
            g.hold(0.2)
            g.up()
            var e = try Self.popEngine(width: width)
            _ = try e.apply(g.events)
            #expect(e.lastRelease?.outcome == outcome)
        }
    }

    @Test("completion: a still release at 0.88 takes the whole duration on the ease-out curve")
    func completion() throws {
        var g = Gesture(at: Point(x: 6, y: 400))
        g.move(dx: 345, over: 1, steps: 60)
        g.hold(0.2)
        g.up()
        var e = try Self.popEngine()
        _ = try e.apply(g.events)
        let decision = try #require(e.lastRelease)
        #expect(decision.outcome == .finish && decision.progress > 0.85)
        let completion = try #require(e.completion)
        #expect(abs(completion.duration - Self.duration) < 1e-9)
        #expect(completion.curve == .timing(.easeOut))
    }

    @Test("a flick pops at the speed of its last sample")
    func flick() throws {
        var g = Gesture(at: Point(x: 6, y: 400))
        g.move(dx: 90, over: 0.06, steps: 4)
        g.up()
        var e = try Self.popEngine()
        _ = try e.apply(g.events)
        let decision = try #require(e.lastRelease)
        #expect(decision.outcome == .finish && decision.reason == .projection && decision.progress < 0.25)
        let last = try #require(e.popStatistics?.lastVelocity)
        let completion = try #require(e.completion)
        #expect(abs(completion.duration - (1 - decision.progress) / last) < 1e-9)
        #expect(completion.duration < (1 - decision.progress) * Self.duration)
        // The app's own pan on the same engine keeps its 0.5 threshold.
        var app = try Self.popEngine(system: nil)
        _ = try app.apply(g.events)
        #expect(app.lastRelease?.outcome == .cancel && app.lastRelease?.reason == .threshold)
        #expect(app.popStatistics == nil)
    }
}
