import Foundation

/// `UIModalTransitionStyle.flipHorizontal`: the two screens are the two sides of one sheet that
/// turns 180° about the vertical axis through the container's centre, with perspective
/// (`m34 = −1/1000`). Each side is one-sided (`isDoubleSided = false`): its opacity is 0 while it
/// faces away. Presenting turns right-edge-away (positive angle about y), dismissing turns back
/// the other way. Ease-in-ease-out. The axis is the device's long axis (seed 003): vertical in
/// portrait, the screen's horizontal axis in a landscape interface
/// (`TransitionConfiguration.longAxisHorizontal`).
public struct FlipHorizontalAnimator: TransitionAnimator {
    public let duration: Double
    let container: Size
    let operation: TransitionOperation
    let aboutHorizontalAxis: Bool

    public static let eyeDistance = 1000.0
    static let perspective = Transform3D(perspectiveEyeDistance: eyeDistance)

    public init(configuration: TransitionConfiguration) {
        duration = configuration.duration
        container = configuration.container
        operation = configuration.operation
        aboutHorizontalAxis = configuration.longAxisHorizontal
    }

    /// The flipped layer: rotation about y first, then perspective (`CATransform3DRotate` of a
    /// perspective transform).
    private func side(_ id: LayerID, _ content: LayerContent, angle: Double) -> LayerState {
        let axis: (x: Double, y: Double) = aboutHorizontalAxis ? (1, 0) : (0, 1)
        let transform3D = Transform3D(rotationAngle: angle, x: axis.x, y: axis.y, z: 0).concatenating(Self.perspective)
        var layer = LayerState.screen(id, content, in: container, z: 0)
        layer.transform3D = transform3D
        layer.transform = transform3D.affine
        let facing = cos(angle) >= 0
        layer.opacity = facing ? 1 : 0
        layer.z = facing ? 1 : 0
        return layer
    }

    public func layers(at time: Double, into layers: inout [LayerState]) {
        let sign: Double = operation == .present ? 1 : -1
        let theta = Double.pi * TimingCurve.easeInEaseOut.value(at: fraction(time)) * sign
        let (fromContent, toContent): (LayerContent, LayerContent) =
            operation == .present ? (.presenter, .presented) : (.presented, .presenter)
        let to = side(.to, toContent, angle: theta - Double.pi * sign)
        if !isComplete(time) { layers.append(side(.from, fromContent, angle: theta)) }
        layers.append(to)
    }
}
