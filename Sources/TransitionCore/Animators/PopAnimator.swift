/// Seed 000's pop (the "herb" detail growing out of a tapped thumbnail).
///
/// The animated view ("herbView") is the destination when presenting and the source when
/// dismissing. It has the full-screen frame; `scaleTransform` maps it onto the thumbnail's frame
/// (`originFrame`). Center and transform ride one spring (damping ratio from the configuration,
/// seed 0.4) over the duration; the corner radius runs linearly (a `CABasicAnimation`) from
/// `20/xScale` to 0 — or 0 to `20/xScale` when dismissing — over the first half and then holds.
/// The thumbnail is hidden while the detail is up and shown again when the dismissal completes.
public struct PopAnimator: TransitionAnimator {
    public let duration: Double
    let container: Size
    let operation: TransitionOperation
    /// Where the herb view grows from: `originFrame`, or `.zero` with `Pitfall.zeroOriginFrame`.
    let origin: Rect
    /// The tapped thumbnail's own frame (it stays where it is, whatever the animation is told).
    let thumbnailFrame: Rect
    let spring: SpringTiming
    let scale: AffineTransform
    let cornerRadius: Double

    /// The thumbnails' visual corner radius, in points.
    public static let thumbnailCornerRadius = 20.0

    public init(configuration: TransitionConfiguration) {
        duration = configuration.duration
        container = configuration.container
        operation = configuration.operation
        thumbnailFrame = configuration.effectiveOriginFrame
        origin = configuration.pitfalls.contains(.zeroOriginFrame) ? .zero : thumbnailFrame
        spring = SpringTiming(
            dampingRatio: configuration.springDamping, duration: configuration.duration,
            initialVelocity: configuration.springInitialVelocity)
        // presenting: initial/final = origin/full; dismissing: full/origin. Either way the
        // factor is the thumbnail's size over the screen's.
        let xScale = origin.width / container.width
        let yScale = origin.height / container.height
        scale = AffineTransform(scaleX: xScale, y: yScale)
        // 20 / 0 with the zero frame: Core Animation draws an oversized radius as half the
        // shorter side, so that is the radius shown (and the frame stays finite).
        cornerRadius =
            xScale > 0
            ? PopAnimator.thumbnailCornerRadius / xScale : min(container.width, container.height) / 2
    }

    public func layers(at time: Double, into layers: inout [LayerState]) {
        let presenting = operation == .present
        let s = spring.value(at: time)
        let screenCenter = Point(x: container.width / 2, y: container.height / 2)
        let (startCenter, endCenter) = presenting ? (origin.center, screenCenter) : (screenCenter, origin.center)
        let (startTransform, endTransform) = presenting ? (scale, AffineTransform.identity) : (.identity, scale)
        let half = fraction(time * 2)  // the radius animation lasts half the duration
        let radius = presenting ? cornerRadius * (1 - half) : cornerRadius * half

        let herb = LayerState(
            id: presenting ? .to : .from, content: .presented,
            center: startCenter.interpolated(to: endCenter, fraction: s),
            bounds: container, transform: startTransform.interpolated(to: endTransform, fraction: s),
            cornerRadius: radius, z: 2)
        let thumbnailVisible = presenting ? time <= 0 : isComplete(time)
        let thumbnail = LayerState(
            id: .thumbnail, content: .thumbnail, center: thumbnailFrame.center, bounds: thumbnailFrame.size,
            cornerRadius: PopAnimator.thumbnailCornerRadius, opacity: thumbnailVisible ? 1 : 0, z: 1)
        let list = LayerState.screen(presenting ? .from : .to, .presenter, in: container, z: 0)

        // Once complete the source screen is removed: the list (with its thumbnail) when
        // presenting, the detail when dismissing.
        let complete = isComplete(time)
        if !complete || !presenting {
            layers.append(list)
            layers.append(thumbnail)
        }
        if !complete || presenting { layers.append(herb) }
    }
}
