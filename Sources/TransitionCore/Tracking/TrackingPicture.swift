/// What a tracking pan shows as a pure function of the tracked fraction (`|translation| /
/// distance`, clamped or rubber-banded: `InteractiveTransition.trackedProgress`): the view's
/// progress (the property animator's scrubbing applied) and the container's layers at it. The
/// same rule `InteractiveTransition.layers()` follows while tracking — the picture just before
/// the end at progress 1, every participant present — so a client that samples it predicts
/// the engine's frames (`TrackingPictureTests.matchesTheEngineWhileTracking`) — except the zoom's
/// dismissal, whose card also follows the pan's translation (InteractiveTransition+Zoom.swift).
public struct TrackingPicture: Sendable {
    public let configuration: TransitionConfiguration
    private let animator: Animator

    public init(configuration: TransitionConfiguration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        animator = Animator(configuration: configuration)
    }

    /// The progress a frame shows at the tracked `fraction` (0…1).
    public func progress(atFraction fraction: Double) -> Double {
        configuration.driver == .propertyAnimator ? configuration.propertyAnimator.scrubbed(fraction) : fraction
    }

    /// The layers a tracking frame shows at the tracked `fraction` (0…1).
    public func layers(atFraction fraction: Double) -> [LayerState] {
        let time = progress(atFraction: fraction) * configuration.duration
        return animator.layers(at: min(time, animator.duration.nextDown))
    }
}
