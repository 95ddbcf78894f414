/// Turns timeline time into layer states — `UIViewControllerAnimatedTransitioning` as a pure
/// function. `layers(at: 0)` is the start state, `layers(at: duration)` the end state (where the
/// source screen has been removed, as `completeTransition(true)` does); the engine scrubs the
/// timeline at `progress × duration` while tracking.
public protocol TransitionAnimator: Equatable, Sendable {
    var duration: Double { get }
    /// Appends the layers at `time` to `layers` (what is there stays): a caller that keeps its
    /// list between frames allocates nothing. Appends exactly `layers(at:)`
    /// (`AnimatorAppendTests`).
    func layers(at time: Double, into layers: inout [LayerState])
}

extension TransitionAnimator {
    /// The layers at `time`, in a new list.
    public func layers(at time: Double) -> [LayerState] {
        var layers: [LayerState] = []
        self.layers(at: time, into: &layers)
        return layers
    }

    /// Time as a fraction of the duration, clamped to 0…1.
    func fraction(_ time: Double) -> Double {
        min(max(time / duration, 0), 1)
    }

    /// True once the timeline has reached its end, when the source screen is gone.
    func isComplete(_ time: Double) -> Bool { time >= duration }
}
