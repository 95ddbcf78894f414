/// The timing of the non-interactive part after release (`completionCurve`).
public enum CompletionCurve: Equatable, Hashable, Sendable {
    /// A unit timing curve over the remaining time (UIKit's `UIView.AnimationCurve` values).
    case timing(TimingCurve)
    /// A spring of the configured damping ratio that starts at the release velocity and lasts
    /// the remaining time: one timeline, no velocity jump at the hand-over (as
    /// `UIViewPropertyAnimator.continueAnimation(withTimingParameters: UISpringTimingParameters)`).
    case spring

    /// The wire names: the named timing curves plus "spring".
    public init?(name: String) {
        if name == "spring" {
            self = .spring
        } else if let curve = TimingCurve(name: name) {
            self = .timing(curve)
        } else {
            return nil
        }
    }
}
