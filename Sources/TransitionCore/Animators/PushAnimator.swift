/// The default navigation push: the new screen comes in from the right while the old one moves
/// a third of the way left underneath (UIKit's parallax); pop reverses it. UIKit's exact curve
/// is private; we use ease-in-ease-out.
public struct PushAnimator: TransitionAnimator {
    public let duration: Double
    let container: Size
    let operation: TransitionOperation

    /// How far the covered screen moves, as a fraction of the width.
    public static let parallax = 0.3

    public init(configuration: TransitionConfiguration) {
        duration = configuration.duration
        container = configuration.container
        operation = configuration.operation
    }

    public func layers(at time: Double, into layers: inout [LayerState]) {
        let f = TimingCurve.easeInEaseOut.value(at: fraction(time))
        let width = container.width
        var from: LayerState
        var to: LayerState
        if operation == .present {
            from = .screen(.from, .presenter, in: container, z: 0)
            to = .screen(.to, .presented, in: container, z: 1)
            from.center.x -= width * PushAnimator.parallax * f
            to.center.x += width * (1 - f)
        } else {
            from = .screen(.from, .presented, in: container, z: 1)
            to = .screen(.to, .presenter, in: container, z: 0)
            from.center.x += width * f
            to.center.x -= width * PushAnimator.parallax * (1 - f)
        }
        if !isComplete(time) { layers.append(from) }
        layers.append(to)
    }
}
