import Testing

@testable import TransitionCore

/// Where a sheet dragged between detents settles, and the pan's own rules.
///
/// Sources: the decompile of iOS 26.1's UIKitCore (github.com/EthanArbuckle/
/// iPhone18-3_26.1_23B85_Restore): `_UISheetInteraction` sets its `_UIHyperInteractor`'s
/// deceleration rate to 0.99, `_projectedPoint` is `x + v·r/(1 − r)/1000` (WWDC 2018 session 803
/// "Designing Fluid Interfaces"), and the interactor snaps to the nearest detent. Inferred and
/// chosen: the settle spring (critically damped, response 0.4 s) and UIScrollView's rubber band
/// (c = 0.55) past the end detents.
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
        // A flick down from near large falls back to medium.
        #expect(SheetDetentRelease.target(top: 80, velocity: 2000, tops: Self.tops) == 0)
        // An infinite velocity picks the end it points at.
        #expect(SheetDetentRelease.target(top: 80, velocity: .infinity, tops: Self.tops) == 0)
        #expect(SheetDetentRelease.target(top: 80, velocity: -.infinity, tops: Self.tops) == 1)
    }

    @Test func theSettleIsACriticallyDampedSpringThatDoesNotOvershoot() {
        let spring = SheetDetentRelease.spring(from: 300, to: 57, velocity: -500)
        #expect(abs(spring.dampingRatio - 1) < 1e-9)
        #expect(abs(spring.naturalFrequency - 2 * Double.pi / 0.4) < 1e-9)
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
        return SheetDetentDrag.Sheet(state: state, pictures: [card(422), card(57)], dimension: 844)
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
        // 500 pt up from 422: 135 past large, banded: (1 − 1/(135·0.55/844 + 1))·844 ≈ 68.5.
        let banded = 57 - (1 - 1 / (135 * 0.55 / 844 + 1)) * 844
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
}
