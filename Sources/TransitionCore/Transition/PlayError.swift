/// Why `InteractiveTransition.play(at:)` refused to start; the transition is unchanged.
public enum PlayError: Error, Equatable, Sendable {
    /// A run starts only from rest (idle, finished or cancelled) with no pointer down.
    case notAtRest(TransitionPhase)
    case nonFiniteTime
}
