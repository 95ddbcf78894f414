/// How UIKit's own interactive gestures end when the finger lifts: the navigation controller's
/// edge-swipe pop (`interactivePopGestureRecognizer`) and the iOS 13+ sheet's swipe-down. They
/// decide by where the release would carry the view, not by where it is, and finish at the
/// release's speed (docs/ENGINE.md, "System gestures"). The app's own interactive transitions
/// keep `ReleaseRule` (`TransitionConfiguration.releaseRule`), which this never reads.
///
/// Sources. A class dump of UIKitCore (akariicafe/Runtime-Headers, 14.3 and 17.0,
/// `_UINavigationInteractiveTransitionBase.h`) shows the pop's decision is
/// `popGesture:withRemainingDuration:shouldPopWithVelocity:` — velocity and the remaining time
/// in, a velocity out — over a tracker of `_velocities[3]`/`_accelerations[3]`; the sheet
/// (`_UISheetInteraction.h`, 14.x) snaps with a `_UIHyperInteractor` to `_detentPoints`, the
/// dismissed position being one of them: project the release, take the nearest point. The
/// bodies are not public, so the projection is WWDC 2018 "Designing Fluid Interfaces"
/// (session 803), `x + (v/1000)·r/(1 − r)` with r = `UIScrollView.DecelerationRate.normal`
/// 0.998 — the deceleration UIKit's own scrolling uses; the exact rate of the pop and of the
/// hyper interactor is not known (chosen: normal). Tested in `SystemGestureReleaseTests`.
public enum SystemGestureRelease {
    /// Whether `plan`, armed as the gesture a scene offers by itself, is one of UIKit's own:
    /// the edge-swipe pop (`interactivePopGestureRecognizer`, iOS 7+), or the swipe-down of a
    /// page or form sheet from iOS 13 (before 13 sheets had no dismiss gesture: WWDC 2019
    /// "Modernizing Your UI for iOS 13", session 224). Any other pan drives the app's transition.
    public static func drives(_ plan: SceneTransitionPlan, ios: IOSVersion) -> Bool {
        switch plan.action {
        case .pop: return plan.edgeSwipe
        // A sheet modal in presentation resists: its release always cancels (`plan.resists`).
        case .dismiss: return plan.style?.isSheet == true && ios.atLeast(13) && !plan.resists
        case .present, .push: return false
        }
    }

    /// The nearest end: projected progress at or past this finishes.
    public static let threshold = 0.5
    /// `UIScrollView.DecelerationRate.normal`: per millisecond, the fraction of velocity kept.
    public static let decelerationRate = ReleaseRule.normalDecelerationRate

    /// Where a release at `progress` moving at `velocity` (progress per second, positive toward
    /// finishing) would come to rest (may lie outside 0…1).
    public static func projected(progress: Double, velocity: Double) -> Double {
        progress + ReleaseRule.projectedDistance(velocity: velocity, decelerationRate: decelerationRate)
    }

    /// Finish when the projected rest point is nearer the end than the start.
    public static func outcome(progress: Double, velocity: Double) -> ReleaseDecision.Outcome {
        projected(progress: progress, velocity: velocity) < threshold ? .cancel : .finish
    }

    /// The completion speed that carries the view on at the release's speed: the remaining
    /// distance takes `remaining / |velocity|` seconds instead of `remaining · duration`, so the
    /// speed is `|velocity| · duration` (progress per second times seconds) — never
    /// slower than the unhurried completion (1), never faster than the engine allows
    /// (`TransitionConfiguration.completionSpeedRange`). A release moving away from its
    /// outcome (a slow drift back past the half) completes unhurried.
    /// `duration`: the transition's duration (s); `to`: 1 finishing, 0 cancelling.
    public static func completionSpeed(progress: Double, velocity: Double, to: Double, duration: Double) -> Double {
        let remaining = abs(to - progress)
        let towards = to > progress ? velocity : -velocity
        guard remaining > 0, towards > 0, duration > 0 else { return 1 }
        let speed = towards * duration
        let range = TransitionConfiguration.completionSpeedRange
        return min(max(speed, 1), range.upperBound)
    }
}
