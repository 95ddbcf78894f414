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
/// The flick: the same decompile's `__45___UISheetInteraction_draggingEndedInSource___block_invoke`
/// reads the internal preference `SheetSpeedThreshold` (default 1000.0 pt/s). When |v| is at least
/// that, the projection's nearest detent is the one nearest the card (`v6 == v9`) and the card
/// lies beyond it the flick's way (`v7 < v8 == v13 < 0`: moving away from it), the index steps
/// one detent further the flick's way, clamped to the detents (`(v19 + v6) & ~(… >> 63)`, then
/// `min(…, regions.count − 1)`); below the smallest is the dismissal where the sheet may dismiss.
///
/// The settle: a spring. The same block sets the animator's
/// `_setInteractionEndedSpringParameters:` to `_UISheetTransitionSpringParametersHighSpeed(speed ≥
/// threshold)`; its values are not readable in the decompile. Third-party (a public disassembly of
/// `_UISheetPresentationMetrics`, not Apple): response 0.3441 s, damping fraction 1.0, and 0.8 at
/// or above the threshold. Started at the release's velocity.
public enum SheetDetentRelease {
    /// `_UISheetInteraction`'s deceleration rate (per millisecond).
    public static let decelerationRate = SheetSwipeRelease.decelerationRate
    /// `SheetSpeedThreshold`'s default (pt/s).
    public static let speedThreshold = 1000.0
    /// The settle spring's response (s) and damping fractions (third-party, above).
    public static let response = 0.3441
    public static let dampingFraction = 1.0
    public static let highSpeedDampingFraction = 0.8
    /// Past this distance from its target the settle is not over (pt).
    public static let restDistance = 0.5

    /// Where the card settles: a detent's index in `tops`, or the dismissal (below the smallest).
    public enum Target: Equatable, Sendable {
        case detent(Int)
        case dismiss
    }

    /// Whether a release at `velocity` (pt/s) is a flick: the step and the high-speed spring.
    public static func isFlick(velocity: Double) -> Bool { abs(velocity) >= speedThreshold }

    /// Where a release at card top `top` moving at `velocity` (pt/s, positive downward) comes
    /// to rest before snapping.
    public static func projectedTop(top: Double, velocity: Double) -> Double {
        top + ReleaseRule.projectedDistance(velocity: velocity, decelerationRate: decelerationRate)
    }

    /// The index in `tops` (the detents' card tops, smallest detent — largest y — first) the
    /// release settles in; ties go to the first. `tops` is not empty. A flick down past the
    /// smallest detent stays on it here (`target(…, dismissible:)` says where it dismisses).
    public static func target(top: Double, velocity: Double, tops: [Double]) -> Int {
        switch target(top: top, velocity: velocity, tops: tops, dismissible: false) {
        case .detent(let index): index
        case .dismiss: 0
        }
    }

    /// The release's target; with `dismissible`, a flick stepping below the smallest detent is
    /// the dismissal.
    public static func target(top: Double, velocity: Double, tops: [Double], dismissible: Bool) -> Target {
        let projected = projectedTop(top: top, velocity: velocity)
        guard projected.isFinite, top.isFinite else { return .detent(velocity > 0 ? 0 : tops.count - 1) }
        let current = nearest(to: top, in: tops)
        let landing = nearest(to: projected, in: tops)
        guard isFlick(velocity: velocity), current == landing, (top < tops[current]) == (velocity < 0) else {
            return .detent(landing)
        }
        // One further the flick's way: down is toward index 0 (larger y).
        let stepped = velocity < 0 ? current + 1 : current - 1
        if stepped < 0 { return dismissible ? .dismiss : .detent(0) }
        return .detent(min(stepped, tops.count - 1))
    }

    /// The index of the top in `tops` nearest `y`; ties go to the first.
    static func nearest(to y: Double, in tops: [Double]) -> Int {
        var best = 0
        for index in tops.indices where abs(tops[index] - y) < abs(tops[best] - y) { best = index }
        return best
    }

    /// The settle's spring from `from` to `to` at the release's `velocity` (pt/s): its initial
    /// velocity is in distances per second toward the target (`Spring.initialVelocity`); a flick
    /// settles on the high-speed damping.
    public static func spring(from: Double, to: Double, velocity: Double) -> Spring {
        let distance = to - from
        let toward = abs(distance) < 1e-9 || !velocity.isFinite ? 0 : velocity / distance
        let damping = isFlick(velocity: velocity) && velocity.isFinite ? highSpeedDampingFraction : dampingFraction
        // Bounded like the engine's springs: a 1e308 pt/s flick starts at most 100 distances/s.
        return Spring(response: response, dampingFraction: damping, initialVelocity: min(max(toward, -100), 100))
    }
}
