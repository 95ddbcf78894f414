import Testing

@testable import TransitionCore

/// Which pans are UIKit's own gestures, and the sheet's swipe-down release: projected
/// `x + (v/1000)·r/(1 − r)` with r = 0.99 — the decompile of iOS 26.1's UIKitCore
/// (github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore): `_UISheetInteraction`'s init sets
/// its `_UIHyperInteractor`'s deceleration rate to 0.99, and `_UIHyperInteractor _projectedPoint`
/// projects by WWDC 2018 "Designing Fluid Interfaces" (session 803)'s formula — then the nearer
/// of the dismissed and presented detents. Inferred (SheetSwipeRelease): the half as the
/// nearer-detent line, the completion at the release's speed. The flick: the same decompile's
/// `__45___UISheetInteraction_draggingEndedInSource___block_invoke` — `SheetSpeedThreshold` 1000.0
/// pt/s; `v18 = v11 >= v12 && v6 == v9; if (v18 && v7 < v8 == v13 < 0)` steps the index one
/// detent further the flick's way. The pop: EdgePopReleaseTests.
@Suite("System gesture release")
struct SystemGestureReleaseTests {
    /// A phone page sheet's dismissal as a scene configures it: the cover-vertical animator
    /// reversed, panned down over the 787 pt card, 1:1 with the finger.
    static func sheetEngine(_ change: (inout TransitionConfiguration) -> Void = { _ in }) throws
        -> InteractiveTransition
    {
        var configuration = TransitionConfiguration(kind: .coverVertical)
        configuration.operation = .dismiss
        configuration.duration = TransitionKind.coverVertical.defaultDuration
        configuration.container = Size(width: 390, height: 787)
        configuration.distance = 787
        configuration.pan.axis = .y
        configuration.pan.direction = .positive
        configuration.systemGesture = .sheetSwipe
        change(&configuration)
        return try InteractiveTransition(configuration: configuration)
    }

    /// A flick down the card by `dy` points in `seconds`, 16 ms steps, released moving.
    static func flick(_ dy: Double, over seconds: Double) -> Gesture {
        var g = Gesture(at: Point(x: 195, y: 300))
        g.move(dx: 0, dy: dy, over: seconds, steps: Int((seconds / 0.016).rounded()))
        g.up()
        return g
    }

    @Test("the sheet's numbers: projected = p + (v/1000)·0.99/0.01 — v·0.099 s ahead")
    func numbers() {
        #expect(SheetSwipeRelease.decelerationRate == 0.99)
        // 2 progress/s projects 0.198 of the card.
        #expect(abs(SheetSwipeRelease.projected(progress: 0.1, velocity: 2) - 0.298) < 1e-9)
        // On a 400 pt card 2 progress/s is 800 pt/s: under the flick speed, the projection decides.
        #expect(SheetSwipeRelease.outcome(progress: 0.1, velocity: 2, distance: 400) == .cancel)
        #expect(SheetSwipeRelease.outcome(progress: 0.1, velocity: 5, distance: 400) == .finish)
        // At rest the position decides, at the half.
        #expect(SheetSwipeRelease.outcome(progress: 0.49, velocity: 0, distance: 787) == .cancel)
        #expect(SheetSwipeRelease.outcome(progress: 0.5, velocity: 0, distance: 787) == .finish)
        // Past the half but thrown back: it stays.
        #expect(SheetSwipeRelease.outcome(progress: 0.8, velocity: -4, distance: 787) == .cancel)
    }

    @Test("the flick: at 1000 pt/s or more, away from the nearest detent, one detent further")
    func flickRule() {
        #expect(SheetDetentRelease.speedThreshold == 1000)
        // 64 pt down the 787 pt card at ≈ 1,330 pt/s projects to ≈ 196 pt, nearer the presented
        // detent, which the card is leaving: dismissed (reason fling).
        let fast = SheetSwipeRelease.decide(progress: 64.0 / 787, velocity: 1330.0 / 787, distance: 787)
        #expect(fast.outcome == .finish && fast.flicked)
        // Third-party (OpenUIKit's simulator measurement): 975 pt/s springs back, 1000 dismisses.
        #expect(SheetSwipeRelease.outcome(progress: 64.0 / 787, velocity: 975.0 / 787, distance: 787) == .cancel)
        #expect(SheetSwipeRelease.outcome(progress: 64.0 / 787, velocity: 1000.0 / 787, distance: 787) == .finish)
        // Moving toward the nearest detent is no step: just short of the half thrown up stays.
        #expect(SheetSwipeRelease.outcome(progress: 0.3, velocity: -2, distance: 787) == .cancel)
        // Past the half moving up fast, the projection still past it: the flick steps back up.
        let back = SheetSwipeRelease.decide(progress: 0.9, velocity: -1.3, distance: 787)
        #expect(back.outcome == .cancel && back.flicked)
        // An infinite velocity: the projection decides (no step past the dismissed detent).
        #expect(SheetSwipeRelease.outcome(progress: 0.1, velocity: .infinity, distance: 787) == .finish)
    }

    @Test("a 40 pt flick in 32 ms (≈ 1,250 pt/s) projects ~164 pt of the 787 pt card: the flick dismisses")
    func moderateFlickDismisses() throws {
        var e = try Self.sheetEngine()
        _ = try e.apply(Self.flick(40, over: 0.032).events)
        let decision = try #require(e.lastRelease)
        #expect(decision.outcome == .finish && decision.reason == .fling)
        #expect(try #require(decision.projected) * 787 < 200)
        #expect(e.runCompletion(from: e.time).last?.phase == .finished)
        // The same 40 pt over 64 ms (≈ 625 pt/s) is no flick: the projection keeps it.
        var slow = try Self.sheetEngine()
        _ = try slow.apply(Self.flick(40, over: 0.064).events)
        #expect(slow.lastRelease?.outcome == .cancel && slow.lastRelease?.reason == .projection)
    }

    @Test("a 150 pt flick in 48 ms projects past the half: dismissed at the release's speed")
    func fastFlickDismisses() throws {
        var e = try Self.sheetEngine()
        _ = try e.apply(Self.flick(150, over: 0.048).events)
        let decision = try #require(e.lastRelease)
        let projected = try #require(decision.projected)
        #expect(decision.outcome == .finish && projected > 0.5)
        let completion = try #require(e.completion)
        #expect(abs(completion.duration - (1 - decision.progress) / decision.velocity) < 1e-9)
        #expect(e.runCompletion(from: e.time).last?.phase == .finished)
    }

    @Test("completion speed: toward the outcome only, within the engine's range")
    func completionSpeed() {
        // 4/s with 0.5 left over 0.5 s: 0.125 s instead of 0.25 s, speed 2.
        #expect(SheetSwipeRelease.completionSpeed(progress: 0.5, velocity: 4, to: 1, duration: 0.5) == 2)
        // Moving away from the outcome, or slower than unhurried: 1.
        #expect(SheetSwipeRelease.completionSpeed(progress: 0.7, velocity: -0.2, to: 1, duration: 0.5) == 1)
        #expect(SheetSwipeRelease.completionSpeed(progress: 0.5, velocity: 0.1, to: 1, duration: 0.5) == 1)
        // Staying: velocity toward 0 counts (0.4 left at 8/s: speed 4).
        #expect(SheetSwipeRelease.completionSpeed(progress: 0.4, velocity: -8, to: 0, duration: 0.5) == 4)
        let capped = SheetSwipeRelease.completionSpeed(progress: 0.999_999, velocity: 1e9, to: 1, duration: 0.5)
        #expect(capped == TransitionConfiguration.completionSpeedRange.upperBound)
        #expect(SheetSwipeRelease.completionSpeed(progress: 1, velocity: 5, to: 1, duration: 0.5) == 1)
    }

    @Test("the app's rules do not apply: fling, threshold, releaseRule, completionSpeed")
    func appRulesIgnored() throws {
        let cases: [(Gesture, InteractiveTransition)] = [
            (Self.flick(150, over: 0.048), try Self.sheetEngine()),
            (Self.edgeFlick(), try EdgePopReleaseTests.popEngine()),
        ]
        for (gesture, base) in cases {
            var reference = base
            _ = try reference.apply(gesture.events)
            var tuned = try base.tuned {
                $0.flingVelocity = 1
                $0.threshold = 0.99
                $0.releaseRule = .threshold
                $0.completionSpeed = 0.01
                $0.decelerationRate = ReleaseRule.fastDecelerationRate
            }
            _ = try tuned.apply(gesture.events)
            #expect(tuned.lastRelease == reference.lastRelease)
            #expect(tuned.completion?.duration == reference.completion?.duration)
        }
    }

    /// From the left edge, 90 pt in 60 ms (1,500 pt/s), released moving.
    static func edgeFlick() -> Gesture {
        var g = Gesture(at: Point(x: 6, y: 400))
        g.move(dx: 90, over: 0.06, steps: 4)
        g.up()
        return g
    }

    @Test("which plans are UIKit's gestures: the edge-swipe pop, a sheet's swipe-down from iOS 13")
    func gestures() {
        func plan(_ action: SceneAction, style: PresentationStyle?, edgeSwipe: Bool) -> SceneTransitionPlan {
            SceneTransitionPlan(
                action: action, kind: .push, from: "B", to: "A", style: style, context: nil,
                container: Rect(x: 0, y: 0, width: 390, height: 844), removesPresenterView: false,
                edgeSwipe: edgeSwipe, animated: true, startEvents: [])
        }
        func gesture(_ plan: SceneTransitionPlan, _ ios: IOSVersion) -> SystemGesture? {
            SystemGestureRelease.gesture(for: plan, ios: ios)
        }
        #expect(gesture(plan(.pop, style: nil, edgeSwipe: true), .ios7) == .edgePop)
        #expect(gesture(plan(.pop, style: nil, edgeSwipe: false), .ios26) == nil)
        for style in [PresentationStyle.pageSheet, .formSheet] {
            #expect(gesture(plan(.dismiss, style: style, edgeSwipe: false), .ios13) == .sheetSwipe)
            #expect(gesture(plan(.dismiss, style: style, edgeSwipe: false), .ios12) == nil)
        }
        for style in [PresentationStyle.fullScreen, .overFullScreen, .currentContext, .overCurrentContext] {
            #expect(gesture(plan(.dismiss, style: style, edgeSwipe: false), .ios26) == nil)
        }
        #expect(gesture(plan(.present, style: .pageSheet, edgeSwipe: false), .ios26) == nil)
        // `isModalInPresentation`: the sheet resists and its release always cancels, so a flick
        // must not project it past the half (Apple, `isModalInPresentation`).
        var resisting = plan(.dismiss, style: .pageSheet, edgeSwipe: false)
        resisting.resists = true
        #expect(gesture(resisting, .ios26) == nil)
        #expect(gesture(plan(.push, style: nil, edgeSwipe: false), .ios26) == nil)
    }
}

extension InteractiveTransition {
    /// The same engine with its configuration changed (tests).
    func tuned(_ change: (inout TransitionConfiguration) -> Void) throws -> InteractiveTransition {
        var configuration = self.configuration
        change(&configuration)
        return try InteractiveTransition(configuration: configuration)
    }
}
