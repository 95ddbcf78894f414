/// Turns timeline time into layer states — `UIViewControllerAnimatedTransitioning` as a pure
/// function. `layers(at: 0)` is the start state, `layers(at: duration)` the end state (where the
/// source screen has been removed, as `completeTransition(true)` does); the engine scrubs the
/// timeline at `progress × duration` while tracking.
public protocol TransitionAnimator: Equatable, Sendable {
    var duration: Double { get }
    func layers(at time: Double) -> [LayerState]
}

extension TransitionAnimator {
    /// Time as a fraction of the duration, clamped to 0…1.
    func fraction(_ time: Double) -> Double {
        min(max(time / duration, 0), 1)
    }

    /// True once the timeline has reached its end, when the source screen is gone.
    func isComplete(_ time: Double) -> Bool { time >= duration }
}
