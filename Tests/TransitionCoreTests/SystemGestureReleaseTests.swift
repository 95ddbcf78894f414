import Testing

@testable import TransitionCore

/// UIKit's own gestures (the edge-swipe pop, the iOS 13+ sheet's swipe-down) decide by where
/// the release would carry the view and finish at its speed. Sources (SystemGestureRelease):
/// WWDC 2018 "Designing Fluid Interfaces" (session 803) for the projection
/// `x + (v/1000)·r/(1 − r)`, r = `UIScrollView.DecelerationRate.normal` 0.998; a class dump of
/// UIKitCore (akariicafe/Runtime-Headers 14.3, 17.0: `_UINavigationInteractiveTransitionBase`'s
/// `popGesture:withRemainingDuration:shouldPopWithVelocity:`, a `UIPercentDrivenInteractiveTransition`;
/// `_UISheetInteraction`'s `_UIHyperInteractor` over `_detentPoints`) for a decision by velocity
/// and a completion that takes the release's speed. The deceleration rate UIKit's pop uses is
/// not public (chosen: normal).
@Suite("System gesture release")
struct SystemGestureReleaseTests {
    /// The edge-swipe pop on a portrait phone as a scene configures it: the push animator
    /// reversed, panned right over the 390 pt content width, 1:1 with the finger.
    static func popEngine(system: Bool, _ change: (inout TransitionConfiguration) -> Void = { _ in })
        throws -> InteractiveTransition
    {
        var configuration = TransitionConfiguration(kind: .push)
        configuration.operation = .dismiss
        configuration.duration = TransitionKind.push.defaultDuration
        configuration.container = Size(width: 390, height: 844)
        configuration.distance = 390
        configuration.pan.axis = .x
        configuration.pan.direction = .positive
        configuration.systemGesture = system
        change(&configuration)
        return try InteractiveTransition(configuration: configuration)
    }

    /// From the left edge, 90 pt in 60 ms (1,500 pt/s), released moving.
    static func edgeFlick() -> Gesture {
        var g = Gesture(at: Point(x: 6, y: 400))
        g.move(dx: 90, over: 0.06, steps: 4)
        g.up()
        return g
    }

    @Test("the rule's numbers: projected = p + (v/1000)·0.998/0.002, the nearer end wins")
    func numbers() {
        // 2 progress/s projects 0.998 of the transition.
        #expect(abs(SystemGestureRelease.projected(progress: 0.1, velocity: 2) - 1.098) < 1e-9)
        #expect(SystemGestureRelease.outcome(progress: 0.1, velocity: 2) == .finish)
        // At rest the position decides, at the half.
        #expect(SystemGestureRelease.outcome(progress: 0.49, velocity: 0) == .cancel)
        #expect(SystemGestureRelease.outcome(progress: 0.5, velocity: 0) == .finish)
        // Past the half but thrown back: it cancels.
        #expect(SystemGestureRelease.outcome(progress: 0.8, velocity: -1) == .cancel)
    }

    @Test("a 90 pt edge flick in 60 ms completes the pop; the app's 0.5 threshold cancels it")
    func flickCompletes() throws {
        let g = Self.edgeFlick()
        var system = try Self.popEngine(system: true)
        _ = try system.apply(g.events)
        let decision = try #require(system.lastRelease)
        #expect(decision.progress < 0.25 && decision.velocity > 3)
        #expect(decision.outcome == .finish && decision.reason == .projection)
        #expect(system.phase == .finishing)
        #expect(system.runCompletion(from: system.time).last?.phase == .finished)

        var app = try Self.popEngine(system: false)
        _ = try app.apply(g.events)
        #expect(app.lastRelease?.outcome == .cancel && app.lastRelease?.reason == .threshold)
    }

    @Test("the completion takes the release's speed: remaining / |v|, never slower than unhurried")
    func flickCompletesFast() throws {
        var system = try Self.popEngine(system: true)
        _ = try system.apply(Self.edgeFlick().events)
        let decision = try #require(system.lastRelease)
        let remaining = 1 - decision.progress
        let completion = try #require(system.completion)
        #expect(abs(completion.duration - remaining / decision.velocity) < 1e-9)
        #expect(completion.duration < remaining * TransitionKind.push.defaultDuration)

        // Released at rest past the half: the unhurried completion (speed 1).
        var g = Gesture(at: Point(x: 6, y: 400))
        g.move(dx: 250, over: 0.5, steps: 30)
        g.hold(0.2)
        g.up()
        var slow = try Self.popEngine(system: true)
        _ = try slow.apply(g.events)
        let rest = try #require(slow.lastRelease)
        #expect(rest.outcome == .finish && abs(rest.velocity) < 1e-9)
        let unhurried = try #require(slow.completion)
        #expect(abs(unhurried.duration - (1 - rest.progress) * TransitionKind.push.defaultDuration) < 1e-9)
    }

    @Test("completion speed: toward the outcome only, within the engine's range")
    func completionSpeed() {
        // 4/s with 0.5 left over 0.5 s: 0.125 s instead of 0.25 s, speed 2.
        #expect(SystemGestureRelease.completionSpeed(progress: 0.5, velocity: 4, to: 1, duration: 0.5) == 2)
        // Moving away from the outcome, or slower than unhurried: 1.
        #expect(SystemGestureRelease.completionSpeed(progress: 0.7, velocity: -0.2, to: 1, duration: 0.5) == 1)
        #expect(SystemGestureRelease.completionSpeed(progress: 0.5, velocity: 0.1, to: 1, duration: 0.5) == 1)
        // Cancelling: velocity toward 0 counts (0.4 left at 8/s: 0.05 s instead of 0.2 s, speed 4).
        #expect(SystemGestureRelease.completionSpeed(progress: 0.4, velocity: -8, to: 0, duration: 0.5) == 4)
        // Nearly there at a huge speed: capped at the engine's maximum.
        let capped = SystemGestureRelease.completionSpeed(progress: 0.999_999, velocity: 1e9, to: 1, duration: 0.5)
        #expect(capped == TransitionConfiguration.completionSpeedRange.upperBound)
        #expect(SystemGestureRelease.completionSpeed(progress: 1, velocity: 5, to: 1, duration: 0.5) == 1)
    }

    @Test("the app's rules do not apply: fling, threshold, releaseRule, completionSpeed")
    func appRulesIgnored() throws {
        let g = Self.edgeFlick()
        var reference = try Self.popEngine(system: true)
        _ = try reference.apply(g.events)
        var tuned = try Self.popEngine(system: true) {
            $0.flingVelocity = 1
            $0.threshold = 0.99
            $0.releaseRule = .threshold
            $0.completionSpeed = 0.01
            $0.decelerationRate = ReleaseRule.fastDecelerationRate
        }
        _ = try tuned.apply(g.events)
        #expect(tuned.lastRelease == reference.lastRelease)
        #expect(tuned.completion?.duration == reference.completion?.duration)
    }

    @Test("which plans are UIKit's gestures: the edge-swipe pop, a sheet's swipe-down from iOS 13")
    func drives() {
        func plan(_ action: SceneAction, style: PresentationStyle?, edgeSwipe: Bool) -> SceneTransitionPlan {
            SceneTransitionPlan(
                action: action, kind: .push, from: "B", to: "A", style: style, context: nil,
                container: Rect(x: 0, y: 0, width: 390, height: 844), removesPresenterView: false,
                edgeSwipe: edgeSwipe, animated: true, startEvents: [])
        }
        #expect(SystemGestureRelease.drives(plan(.pop, style: nil, edgeSwipe: true), ios: .ios7))
        #expect(!SystemGestureRelease.drives(plan(.pop, style: nil, edgeSwipe: false), ios: .ios26))
        for style in [PresentationStyle.pageSheet, .formSheet] {
            #expect(SystemGestureRelease.drives(plan(.dismiss, style: style, edgeSwipe: false), ios: .ios13))
            #expect(!SystemGestureRelease.drives(plan(.dismiss, style: style, edgeSwipe: false), ios: .ios12))
        }
        for style in [PresentationStyle.fullScreen, .overFullScreen, .currentContext, .overCurrentContext] {
            #expect(!SystemGestureRelease.drives(plan(.dismiss, style: style, edgeSwipe: false), ios: .ios26))
        }
        #expect(!SystemGestureRelease.drives(plan(.present, style: .pageSheet, edgeSwipe: false), ios: .ios26))
        // `isModalInPresentation`: the sheet resists and its release always cancels, so a flick
        // must not project it past the half (Apple, `isModalInPresentation`).
        var resisting = plan(.dismiss, style: .pageSheet, edgeSwipe: false)
        resisting.resists = true
        #expect(!SystemGestureRelease.drives(resisting, ios: .ios26))
        #expect(!SystemGestureRelease.drives(plan(.push, style: nil, edgeSwipe: false), ios: .ios26))
    }
}
