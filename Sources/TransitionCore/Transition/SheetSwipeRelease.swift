/// How an iOS 13+ page or form sheet's swipe-down ends when the finger lifts: the sheet's
/// `_UISheetInteraction` snaps through a `_UIHyperInteractor` to the detent nearest the point
/// the release projects to — dismissed or presented (docs/ENGINE.md, "System gestures").
///
/// Source: the decompile of iOS 26.1's UIKitCore (github.com/EthanArbuckle/
/// iPhone18-3_26.1_23B85_Restore): `_UISheetInteraction`'s init sets the hyper interactor's
/// deceleration rate to 0.99, and `_UIHyperInteractor _projectedPoint` projects
/// `x + v·r/(1 − r)/1000` (v in pt/s) — WWDC 2018 "Designing Fluid Interfaces" (session 803)'s
/// formula with r = 0.99: v·0.099 s ahead. Inferred: the dismissed detent lies one card height
/// below the presented one, so the nearer is decided at the half (chosen: 0.5 of the card), and
/// the completion runs at the release's speed (`completionSpeed`). The flick: the same decompile's
/// `__45___UISheetInteraction_draggingEndedInSource___block_invoke` steps one detent further the
/// flick's way when the speed is at least `SheetSpeedThreshold` (1000 pt/s), the projection's
/// nearest detent is the card's nearest and the card moves away from it (`SheetDetentRelease`).
/// Tested in `SystemGestureReleaseTests`.
public enum SheetSwipeRelease {
    /// Projected progress at or past this finishes: the nearer of the two detents.
    public static let threshold = 0.5
    /// `_UISheetInteraction`'s deceleration rate: per millisecond, the fraction of velocity kept.
    public static let decelerationRate = 0.99

    /// Where a release at `progress` moving at `velocity` (progress per second, positive toward
    /// dismissing) would come to rest (may lie outside 0…1). Progress is the card's travel over
    /// its height, so projecting in progress is projecting in points.
    public static func projected(progress: Double, velocity: Double) -> Double {
        progress + ReleaseRule.projectedDistance(velocity: velocity, decelerationRate: decelerationRate)
    }

    /// Dismiss when the projected rest point is nearer the dismissed detent, or when a flick
    /// (`SheetDetentRelease.isFlick` at `velocity · distance` pt/s) moves away from the nearer one
    /// toward the other: the two detents are presented (0) and dismissed (1). `distance`: the
    /// card's travel (pt).
    public static func outcome(progress: Double, velocity: Double, distance: Double) -> ReleaseDecision.Outcome {
        decide(progress: progress, velocity: velocity, distance: distance).outcome
    }

    /// The outcome and whether the flick rule, not the projection alone, chose it.
    public static func decide(
        progress: Double, velocity: Double, distance: Double
    ) -> (outcome: ReleaseDecision.Outcome, flicked: Bool) {
        let projectedOutcome: ReleaseDecision.Outcome =
            projected(progress: progress, velocity: velocity) < threshold ? .cancel : .finish
        let nearest: ReleaseDecision.Outcome = progress < threshold ? .cancel : .finish
        guard SheetDetentRelease.isFlick(velocity: velocity * distance), projectedOutcome == nearest else {
            return (projectedOutcome, false)
        }
        // Away from the nearest detent: below the presented one moving down, or above the
        // dismissed one moving up (the decompile's `v7 < v8 == v13 < 0`).
        let detent = nearest == .cancel ? 0.0 : 1.0
        guard (progress < detent) == (velocity < 0) else { return (projectedOutcome, false) }
        let stepped: ReleaseDecision.Outcome = velocity < 0 ? .cancel : .finish
        return (stepped, stepped != projectedOutcome)
    }

    /// The completion speed that carries the card on at the release's speed: the remaining
    /// distance takes `remaining / |velocity|` seconds instead of `remaining · duration`, so the
    /// speed is `|velocity| · duration` — never slower than the unhurried completion (1), never
    /// faster than the engine allows (`TransitionConfiguration.completionSpeedRange`). A release
    /// moving away from its outcome completes unhurried. Inferred (the hyper interactor's
    /// animation is a spring whose parameters the sandbox does not model).
    /// `duration`: the transition's duration (s); `to`: 1 dismissing, 0 staying.
    public static func completionSpeed(progress: Double, velocity: Double, to: Double, duration: Double) -> Double {
        let remaining = abs(to - progress)
        let towards = to > progress ? velocity : -velocity
        guard remaining > 0, towards > 0, duration > 0 else { return 1 }
        let range = TransitionConfiguration.completionSpeedRange
        return min(max(towards * duration, 1), range.upperBound)
    }
}
