/// Seed 000's fade: the destination is added on top with alpha 0 and animated to 1 with
/// `UIView.animate(withDuration:)`, whose default curve is ease-in-ease-out. The same animator
/// serves both ways: on dismissal the presenter fades in over the presented screen.
public struct FadeAnimator: TransitionAnimator {
    public let duration: Double
    let container: Size
    let operation: TransitionOperation

    public init(configuration: TransitionConfiguration) {
        duration = configuration.duration
        container = configuration.container
        operation = configuration.operation
    }

    public func layers(at time: Double, into layers: inout [LayerState]) {
        let (fromContent, toContent): (LayerContent, LayerContent) =
            operation == .present ? (.presenter, .presented) : (.presented, .presenter)
        var to = LayerState.screen(.to, toContent, in: container, z: 1)
        to.opacity = TimingCurve.easeInEaseOut.value(at: fraction(time))
        if !isComplete(time) { layers.append(.screen(.from, fromContent, in: container, z: 0)) }
        layers.append(to)
    }
}
