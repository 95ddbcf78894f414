/// `UIModalTransitionStyle.crossDissolve`: the presented screen fades in over the presenter,
/// which stays still; on dismissal the presented screen fades out (the style reversed).
/// Unlike `FadeAnimator`, the presented screen is always the one on top. Ease-in-ease-out.
public struct CrossDissolveAnimator: TransitionAnimator {
    public let duration: Double
    let container: Size
    let operation: TransitionOperation

    public init(configuration: TransitionConfiguration) {
        duration = configuration.duration
        container = configuration.container
        operation = configuration.operation
    }

    public func layers(at time: Double, into layers: inout [LayerState]) {
        let f = TimingCurve.easeInEaseOut.value(at: fraction(time))
        if operation == .present {
            var to = LayerState.screen(.to, .presented, in: container, z: 1)
            to.opacity = f
            if !isComplete(time) { layers.append(.screen(.from, .presenter, in: container, z: 0)) }
            layers.append(to)
            return
        }
        var from = LayerState.screen(.from, .presented, in: container, z: 1)
        from.opacity = 1 - f
        layers.append(.screen(.to, .presenter, in: container, z: 0))
        if !isComplete(time) { layers.append(from) }
    }
}
