/// Seed 000's reveal (push with a logo mask), 2.0 s by default.
///
/// Push: the logo sits on the source screen, 30 pt below its centre; the same logo shape masks
/// the destination at its centre. Both get one transform animation, identity →
/// `translate(0, −10)·scale(150, 150)` (`CATransform3DConcat`, so the translation is scaled:
/// ty = −1500), ease-in, held at the end; the destination's opacity runs 0 → 1 linearly (a
/// `CABasicAnimation`). When the transition completes the mask is removed.
/// Pop: the destination is inserted below and the source shrinks to `scale(0.01, 0.01)`, ease-in.
public struct RevealAnimator: TransitionAnimator {
    public let duration: Double
    let container: Size
    let operation: TransitionOperation

    /// The end value of the logo/mask transform animation.
    public static let zoomed = AffineTransform(translationX: 0, y: -10).concatenating(
        AffineTransform(scaleX: 150, y: 150))
    /// The end value of the pop's shrink.
    public static let shrunk = AffineTransform(scaleX: 0.01, y: 0.01)

    public init(configuration: TransitionConfiguration) {
        duration = configuration.duration
        container = configuration.container
        operation = configuration.operation
    }

    public func layers(at time: Double, into layers: inout [LayerState]) {
        let f = TimingCurve.easeIn.value(at: fraction(time))
        if operation == .dismiss {
            var from = LayerState.screen(.from, .presented, in: container, z: 1)
            from.transform = AffineTransform.identity.interpolated(to: RevealAnimator.shrunk, fraction: f)
            layers.append(.screen(.to, .presenter, in: container, z: 0))
            if !isComplete(time) { layers.append(from) }
            return
        }
        let zoom = AffineTransform.identity.interpolated(to: RevealAnimator.zoomed, fraction: f)
        var to = LayerState.screen(.to, .presented, in: container, z: 2)
        to.opacity = fraction(time)
        if isComplete(time) {
            layers.append(to)
            return
        }
        to.mask = .mask
        let logo = LayerState(
            id: .logo, content: .logo, shape: .logo,
            center: Point(x: container.width / 2, y: container.height / 2 + 30), bounds: LogoPath.size,
            transform: zoom, z: 1)
        let mask = LayerState(
            id: .mask, content: .mask, shape: .logo,
            center: Point(x: container.width / 2, y: container.height / 2), bounds: LogoPath.size,
            transform: zoom, z: 3)
        layers.append(.screen(.from, .presenter, in: container, z: 0))
        layers.append(logo)
        layers.append(to)
        layers.append(mask)
    }
}
