/// `UIModalTransitionStyle.coverVertical`: the presented screen slides up from the bottom of the
/// container and slides back down on dismissal; the presenter stays still. "Bottom" is the
/// container's bottom edge, so a landscape container slides along its own height. Ease-in-ease-out.
public struct CoverVerticalAnimator: TransitionAnimator {
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
        let height = container.height
        if operation == .present {
            var to = LayerState.screen(.to, .presented, in: container, z: 1)
            to.center.y += height * (1 - f)
            if !isComplete(time) { layers.append(.screen(.from, .presenter, in: container, z: 0)) }
            layers.append(to)
            return
        }
        var from = LayerState.screen(.from, .presented, in: container, z: 1)
        from.center.y += height * f
        layers.append(.screen(.to, .presenter, in: container, z: 0))
        if !isComplete(time) { layers.append(from) }
    }
}
