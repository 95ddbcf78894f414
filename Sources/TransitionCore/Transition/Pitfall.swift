/// Mistakes the seeds warn about, reproduced on purpose so a person can watch them.
/// Each is off by default; raw values are the wire names. docs/ENGINE.md, "Pitfalls", describes
/// the wrong picture each one draws and where it comes from.
public enum Pitfall: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The pop animator keeps seed 000's first `originFrame = CGRect.zero`: the detail grows out
    /// of (and shrinks into) the top-left corner instead of the tapped thumbnail.
    case zeroOriginFrame = "zero-origin-frame"
    /// `completeTransition(true)` from the pan handler on a cancel, while the percent-driven
    /// controller still holds the container's layer paused: the transition is reported
    /// finished, frozen at the release progress, and the source view is removed.
    case completeOnCancel = "complete-on-cancel"
    /// Seed 000's cancel: `completionSpeed = -1` and the container layer's `beginTime` set to
    /// now. The layer's clock runs backwards from the release, linearly (the completion curve
    /// and speed are bypassed), and once it passes the animations' start the layers show their
    /// model values — the end state — until UIKit's completion handler cleans up.
    case negativeCompletionSpeed = "negative-completion-speed"
    /// Progress `translation.x / 200` without the seed's `abs`: a leftward pan goes negative
    /// and stays at the clamp's lower limit.
    case noAbs = "no-abs"

    /// How long the end state shows after a `negativeCompletionSpeed` cancel reaches the start:
    /// one refresh at 60 Hz, until the completion handler runs on the next turn of the run loop.
    public static let modelValueFlash = 1.0 / 60
}
