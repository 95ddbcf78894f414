/// Where a sheet dragged between its detents settles when the finger lifts, and how it gets
/// there. SheetDetentReleaseTests hold each rule against the numbers below.
///
/// The choice: the detent nearest the point the release projects to. Source: the decompile
/// of iOS 26.1's UIKitCore (github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore):
/// `_UISheetInteraction` drives the card through a `_UIHyperInteractor` whose deceleration rate
/// it sets to 0.99, and `_UIHyperInteractor _projectedPoint` projects `x + v·r/(1 − r)/1000` —
/// WWDC 2018 session 803 "Designing Fluid Interfaces"' projection — then snaps to the nearest
/// detent: v·0.099 s ahead, the same rule as the swipe-down (`SheetSwipeRelease`).
///
/// The settle: a spring. The hyper interactor's spring parameters are not readable in the
/// decompile; chosen (inferred): critically damped (damping fraction 1 — a sheet does not
/// overshoot its detent in WWDC 2021 session 10063's demos) with a response of 0.4 s, started
/// at the release's velocity.
public enum SheetDetentRelease {
    /// `_UISheetInteraction`'s deceleration rate (per millisecond).
    public static let decelerationRate = SheetSwipeRelease.decelerationRate
    /// The settle spring's response (s) and damping fraction (inferred, above).
    public static let response = 0.4
    public static let dampingFraction = 1.0
    /// Past this distance from its target the settle is not over (pt).
    public static let restDistance = 0.5

    /// Where a release at card top `top` moving at `velocity` (pt/s, positive downward) comes
    /// to rest before snapping.
    public static func projectedTop(top: Double, velocity: Double) -> Double {
        top + ReleaseRule.projectedDistance(velocity: velocity, decelerationRate: decelerationRate)
    }

    /// The index in `tops` (the detents' card tops) nearest the projected point; ties go to
    /// the first. `tops` is not empty.
    public static func target(top: Double, velocity: Double, tops: [Double]) -> Int {
        let projected = projectedTop(top: top, velocity: velocity)
        guard projected.isFinite else { return velocity > 0 ? 0 : tops.count - 1 }
        var best = 0
        for index in tops.indices where abs(tops[index] - projected) < abs(tops[best] - projected) {
            best = index
        }
        return best
    }

    /// The settle's spring from `from` to `to` at the release's `velocity` (pt/s): its initial
    /// velocity is in distances per second toward the target (`Spring.initialVelocity`).
    public static func spring(from: Double, to: Double, velocity: Double) -> Spring {
        let distance = to - from
        let toward = abs(distance) < 1e-9 || !velocity.isFinite ? 0 : velocity / distance
        // Bounded like the engine's springs: a 1e308 pt/s flick starts at most 100 distances/s.
        return Spring(
            response: response, dampingFraction: dampingFraction, initialVelocity: min(max(toward, -100), 100))
    }
}
