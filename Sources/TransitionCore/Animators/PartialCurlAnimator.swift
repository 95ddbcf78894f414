import Foundation

/// `UIModalTransitionStyle.partialCurl`, approximated as a *flat fold*. UIKit bends the page
/// around a cylinder; we fold it along a straight line instead, which keeps every layer an
/// affine shape a canvas can draw:
/// - the fold line is tilted by `foldAngle` (the bottom-right corner lifts first) and rises from
///   just below the page to `restingFold` of the height (ease-in-ease-out);
/// - the page (`from` when presenting) is cut along the line by the `fold` mask: only the part
///   above the line stays;
/// - the part below the line is mirrored across it and drawn as `curl`, the back of the page;
/// - the presented screen lies still underneath and shows where the page has lifted.
/// As in UIKit, the curled page stays over the presented screen when the transition completes.
/// Dismissing uncurls the page back down over the presented screen.
public struct PartialCurlAnimator: TransitionAnimator {
    public let duration: Double
    let container: Size
    let operation: TransitionOperation

    /// The fold line's tilt in radians.
    public static let foldAngle = 0.2
    /// Where the fold line ends (its middle), as a fraction of the height from the top.
    public static let restingFold = 0.6

    public init(configuration: TransitionConfiguration) {
        duration = configuration.duration
        container = configuration.container
        operation = configuration.operation
    }

    public func layers(at time: Double, into layers: inout [LayerState]) {
        let eased = TimingCurve.easeInEaseOut.value(at: fraction(time))
        let curled = operation == .present ? eased : 1 - eased
        let (pageID, underID): (LayerID, LayerID) = operation == .present ? (.from, .to) : (.to, .from)
        let under = LayerState.screen(underID, .presented, in: container, z: 0)
        var page = LayerState.screen(pageID, .presenter, in: container, z: 1)
        if operation == .dismiss && isComplete(time) {  // the presented screen is gone
            layers.append(page)
            return
        }

        let alpha = Self.foldAngle
        let halfWidthRise = container.width / 2 * tan(alpha)
        let startFold = container.height + halfWidthRise  // the whole line below the page
        let foldY = startFold + (container.height * Self.restingFold - startFold) * curled
        let pivot = Point(x: container.width / 2, y: foldY)
        let direction = Point(x: cos(alpha), y: -sin(alpha))  // along the line, rising to the right
        let upward = Point(x: -sin(alpha), y: -cos(alpha))  // normal toward the kept part

        // Reflection across the line through `pivot`: x' = R(x − pivot) + pivot.
        let reflection = AffineTransform(
            a: 2 * direction.x * direction.x - 1, b: 2 * direction.x * direction.y,
            c: 2 * direction.x * direction.y, d: 2 * direction.y * direction.y - 1, tx: 0, ty: 0)
        let curl = LayerState(
            id: .curl, content: .pageBack,
            center: reflection.apply(to: page.center - pivot) + pivot, bounds: container,
            transform: reflection, z: 2, mask: .fold)
        // A rectangle far larger than the page whose bottom edge lies on the fold line.
        let maskSize = Size(width: container.width * 4, height: container.height * 4)
        let fold = LayerState(
            id: .fold, content: .mask, center: pivot + upward * (maskSize.height / 2), bounds: maskSize,
            transform: AffineTransform(rotationAngle: -alpha), z: 3)
        page.mask = .fold
        layers.append(under)
        layers.append(page)
        layers.append(curl)
        layers.append(fold)
    }
}
