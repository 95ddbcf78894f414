import Testing

@testable import TransitionCore

/// Where a sheet dragged between detents settles, and the pan's own rules.
///
/// Sources: the decompile of iOS 26.1's UIKitCore (github.com/EthanArbuckle/
/// iPhone18-3_26.1_23B85_Restore): `_UISheetInteraction` sets its `_UIHyperInteractor`'s
/// deceleration rate to 0.99, `_projectedPoint` is `x + v·r/(1 − r)/1000` (WWDC 2018 session 803
/// "Designing Fluid Interfaces"), and the interactor snaps to the nearest detent. The flick:
/// `__45___UISheetInteraction_draggingEndedInSource___block_invoke` reads `SheetSpeedThreshold`
/// (`v12 = 1000.0`), and `v18 = v11 >= v12 && v6 == v9; if (v18 && v7 < v8 == v13 < 0)` steps
/// the index one detent the flick's way (`v9 = (v19 + v6) & ~(…)`, clamped to `regions.count − 1`);
/// the same block sets `_UISheetTransitionSpringParametersHighSpeed(v11 >= v12)`. Third-party (a
/// public disassembly of `_UISheetPresentationMetrics`, not Apple): the spring's response 0.3441 s,
/// damping 1.0, 0.8 at high speed. Third-party (the Charon port's reading of
/// `_rubberBandExtentBeyondMinimumOffset`): the stretch above the largest detent tends to
/// min(gap to the safe-area top, 100 pt). Inferred: UIScrollView's rubber band (c = 0.55).
@Suite("Sheet detent release")
struct SheetDetentReleaseTests {
    /// Medium (top 422) and large (top 57) on the 844 pt phone.
    static let tops = [422.0, 57.0]

    @Test func theReleaseProjectsPoint099SecondsAhead() {
        #expect(abs(SheetDetentRelease.projectedTop(top: 300, velocity: -1000) - 201) < 1e-9)
        #expect(SheetDetentRelease.decelerationRate == 0.99)
    }

    @Test func theNearestDetentToTheProjectionWins() {
        // Slow, past the middle (239.5): large; slow, short of it: back to medium.
        #expect(SheetDetentRelease.target(top: 230, velocity: 0, tops: Self.tops) == 1)
        #expect(SheetDetentRelease.target(top: 260, velocity: 0, tops: Self.tops) == 0)
        // A flick up from just above medium reaches large: 400 − 2,000·0.099 = 202.
        #expect(SheetDetentRelease.target(top: 400, velocity: -2000, tops: Self.tops) == 1)
        // A flick down from near large falls back to medium (the projection, 278, is nearer it).
        #expect(SheetDetentRelease.target(top: 80, velocity: 2000, tops: Self.tops) == 0)
        // Slow (500 pt/s) from near large: the projection (129.5) stays at large.
        #expect(SheetDetentRelease.target(top: 80, velocity: 500, tops: Self.tops) == 1)
        // An infinite velocity picks the end it points at.
        #expect(SheetDetentRelease.target(top: 80, velocity: .infinity, tops: Self.tops) == 0)
        #expect(SheetDetentRelease.target(top: 80, velocity: -.infinity, tops: Self.tops) == 1)
    }

    @Test func aFlickAwayFromTheNearestDetentStepsOneFurther() {
        #expect(SheetDetentRelease.speedThreshold == 1000)
        // 60 pt up from medium at 1,200 pt/s: projected 362 − 118.8 = 243.2, still nearest medium,
        // which the card is leaving upward: large.
        #expect(SheetDetentRelease.target(top: 362, velocity: -1200, tops: Self.tops) == 1)
        // At 975 pt/s it is no flick: back to medium.
        #expect(SheetDetentRelease.target(top: 362, velocity: -975, tops: Self.tops) == 0)
        // Moving toward the nearest detent is no step: above medium, thrown down, settles on it.
        #expect(SheetDetentRelease.target(top: 300, velocity: 1500, tops: Self.tops) == 0)
        // Above large moving up: clamped to large.
        #expect(SheetDetentRelease.target(top: 50, velocity: -3000, tops: Self.tops) == 1)
        // Exactly on a detent the decompile's `v7 < v8` is false: down steps, up does not.
        #expect(SheetDetentRelease.target(top: 57, velocity: 1500, tops: Self.tops) == 0)
        #expect(SheetDetentRelease.target(top: 422, velocity: -1010, tops: Self.tops) == 0)
        // Below the smallest moving down: the dismissal where the sheet may dismiss, else the smallest.
        let below = SheetDetentRelease.target(top: 440, velocity: 1500, tops: Self.tops, dismissible: true)
        #expect(below == .dismiss)
        #expect(SheetDetentRelease.target(top: 440, velocity: 1500, tops: Self.tops, dismissible: false) == .detent(0))
        // Three detents (a custom 600 between): from near 422, a flick up lands one further, not two.
        let three = [600.0, 422, 57]
        #expect(SheetDetentRelease.target(top: 410, velocity: -1100, tops: three) == 2)
        #expect(SheetDetentRelease.target(top: 430, velocity: 1100, tops: three) == 0)
        // NaN: no flick, no projection: the end the (non-positive) velocity points at.
        #expect(SheetDetentRelease.target(top: 300, velocity: .nan, tops: Self.tops) == 1)
    }

    @Test func theSettleSpringIsTheSheetMetricsOnesAndAFlickIsUnderdamped() {
        let slow = SheetDetentRelease.spring(from: 300, to: 57, velocity: -500)
        #expect(abs(slow.dampingRatio - 1) < 1e-9)
        #expect(abs(slow.naturalFrequency - 2 * Double.pi / 0.3441) < 1e-9)
        let fast = SheetDetentRelease.spring(from: 300, to: 57, velocity: -1000)
        #expect(abs(fast.dampingRatio - 0.8) < 1e-9)
        #expect(abs(fast.naturalFrequency - 2 * Double.pi / 0.3441) < 1e-9)
        #expect(abs(SheetDetentRelease.spring(from: 300, to: 57, velocity: 999).dampingRatio - 1) < 1e-9)
    }

    @Test func theSettleIsACriticallyDampedSpringThatDoesNotOvershoot() {
        let spring = SheetDetentRelease.spring(from: 300, to: 57, velocity: -500)
        #expect(abs(spring.dampingRatio - 1) < 1e-9)
        for step in 0...100 {
            let d = spring.displacement(at: Double(step) / 100)
            #expect(d >= -1e-9 && d <= 1 + 1e-9)
        }
        #expect(SheetDetentRelease.spring(from: 300, to: 57, velocity: 1e308).initialVelocity == -100)
        #expect(SheetDetentRelease.spring(from: 57, to: 57, velocity: 500).initialVelocity == 0)
    }

    static func sheet() -> SheetDetentDrag.Sheet {
        let state = SheetDetentState(
            controller: "card", configuration: SheetDetentConfiguration(detents: [.medium, .large]),
            detents: [("medium", 422), ("large", 57)], selected: "medium", top: 422, bottom: 844)
        let card = { (top: Double) in
            [
                SceneLayer(
                    controller: "home", role: .root, frame: Rect(x: 0, y: 0, width: 390, height: 844), group: "home"),
                SceneLayer(
                    controller: "card", role: .presented, frame: Rect(x: 0, y: top, width: 390, height: 844 - top),
                    group: "card"),
            ]
        }
        return SheetDetentDrag.Sheet(
            state: state, pictures: [card(422), card(57)], dimension: 844, safeAreaTop: 47)
    }

    @Test func aDownAtTheSmallestDetentWaitsForTheFirstMove() {
        let drag = SheetDetentDrag.begin(
            PointerEvent(.down, x: 195, y: 500, time: 0), sheet: Self.sheet(), top: 422, detent: "medium")
        guard case .undecided = drag else { Issue.record("expected undecided, got \(drag)"); return }
        let above = SheetDetentDrag.begin(
            PointerEvent(.down, x: 195, y: 500, time: 0), sheet: Self.sheet(), top: 57, detent: "large")
        guard case .tracking = above else { Issue.record("expected tracking, got \(above)"); return }
    }

    @Test func theCardFollowsTheFingerAndRubberBandsPastTheEnds() {
        var drag = SheetDetentDrag.begin(
            PointerEvent(.down, x: 195, y: 500, time: 0), sheet: Self.sheet(), top: 422, detent: "medium")
        drag.decideUp(PointerEvent(.move, x: 195, y: 400, time: 0.1))
        #expect(drag.top == 322)
        #expect(drag.layers.last?.frame.minY == 322)
        drag.move(PointerEvent(.move, x: 195, y: 0, time: 0.2))
        // 500 pt up from 422: 135 past large, banded toward the 10 pt gap to the safe area (47):
        // (1 − 1/(135·0.55/10 + 1))·10 ≈ 8.8.
        let banded = 57 - (1 - 1 / (135 * 0.55 / 10 + 1)) * 10
        #expect(banded > 48 && banded < 48.5)
        #expect(abs(drag.top - banded) < 1e-9)
        #expect(abs((drag.layers.last?.frame.minY ?? 0) - banded) < 1e-9)
        #expect(abs((drag.layers.last?.frame.maxY ?? 0) - 844) < 1e-9)  // it grows: its bottom stays
    }

    @Test func aReleaseSettlesOnItsSpringAndEnds() {
        var drag = SheetDetentDrag.begin(
            PointerEvent(.down, x: 195, y: 500, time: 0), sheet: Self.sheet(), top: 422, detent: "medium")
        drag.decideUp(PointerEvent(.move, x: 195, y: 250, time: 0.3))
        let target = drag.release(PointerEvent(.up, x: 195, y: 250, time: 0.4), cancelled: false)
        #expect(target == "large")
        var running = drag.advance(to: 0.5)
        #expect(running && drag.top < 172 && drag.top > 57)
        var time = 0.5
        while running, time < 5 {
            time += 1 / 60.0
            running = drag.advance(to: time)
        }
        #expect(!running && abs(drag.top - 57) < SheetDetentRelease.restDistance)
        #expect(time < 1.5)
    }

    @Test func aCancelGoesBackToWhereItBegan() {
        var drag = SheetDetentDrag.begin(
            PointerEvent(.down, x: 195, y: 500, time: 0), sheet: Self.sheet(), top: 422, detent: "medium")
        drag.decideUp(PointerEvent(.move, x: 195, y: 100, time: 0.1))
        #expect(drag.release(PointerEvent(.cancel, x: 195, y: 100, time: 0.2), cancelled: true) == "medium")
    }

    @Test func theStretchAboveTheLargestIsLimited() {
        // The phone's large detent (57) is 10 pt below the safe area's top (47): at most 10 pt.
        #expect(SheetDetentDrag.stretchLimit(largestTop: 57, safeAreaTop: 47) == 10)
        // A lower largest detent: at most 100 pt.
        #expect(SheetDetentDrag.stretchLimit(largestTop: 422, safeAreaTop: 47) == 100)
        // Above the safe area, or a non-finite top: none.
        #expect(SheetDetentDrag.stretchLimit(largestTop: 20, safeAreaTop: 47) == 0)
        #expect(SheetDetentDrag.stretchLimit(largestTop: .nan, safeAreaTop: 47) == 0)
        // A 200 pt pull up from large never reaches the safe area (the old band reached y = −40).
        var drag = SheetDetentDrag.begin(
            PointerEvent(.down, x: 195, y: 500, time: 0), sheet: Self.sheet(), top: 57, detent: "large")
        drag.move(PointerEvent(.move, x: 195, y: 300, time: 0.1))
        #expect(drag.top < 57 && drag.top > 47)
        drag.move(PointerEvent(.move, x: 195, y: -1e308, time: 0.2))
        #expect(drag.top >= 47 && drag.top.isFinite)
    }

    @Test func aDragBelowTheSmallestDetentStartsTheDismissal() {
        var drag = SheetDetentDrag.begin(
            PointerEvent(.down, x: 195, y: 100, time: 0), sheet: Self.sheet(), top: 57, detent: "large")
        // 300 pt down: the card at 357, above medium (422): still the drag's.
        #expect(drag.dismissalDown(PointerEvent(.move, x: 195, y: 400, time: 0.1)) == nil)
        drag.move(PointerEvent(.move, x: 195, y: 400, time: 0.1))
        // 400 pt down: 35 pt past medium; the dismissal's down is where the card crossed it.
        let down = drag.dismissalDown(PointerEvent(.move, x: 190, y: 500, time: 0.2, pointerID: 0))
        #expect(down == PointerEvent(.down, x: 190, y: 465, time: 0.2, pointerID: 0))
        // Undecided (the first move picks), a settle, a non-finite position: none.
        let undecided = SheetDetentDrag.begin(
            PointerEvent(.down, x: 195, y: 500, time: 0), sheet: Self.sheet(), top: 422, detent: "medium")
        #expect(undecided.dismissalDown(PointerEvent(.move, x: 195, y: 600, time: 0.1)) == nil)
        #expect(drag.dismissalDown(PointerEvent(.move, x: 195, y: .infinity, time: 0.2)) == nil)
    }
}
