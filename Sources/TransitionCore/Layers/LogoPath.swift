/// The reveal animator's logo (seed 000's `RWLogoLayer`): a closed Bézier path in a
/// 67 × 66.97 pt box.
///
/// The seed draws it with `geometryFlipped = true`, so its y axis points up. These commands are
/// already flipped into the box's top-left, y-down coordinates (y' = 66.97 − y), ready to draw.
public enum LogoPath {
    public enum Command: Equatable, Sendable {
        case move(Point)
        case line(Point)
        case curve(to: Point, control1: Point, control2: Point)
        case close
    }

    /// The path's bounding box (`CGPathGetBoundingBox`, the layer's bounds).
    public static let size = Size(width: 67, height: 66.97)

    private static func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: size.height - y) }

    public static let commands: [Command] = [
        .move(p(0, 0)),
        .curve(to: p(0, 66.97), control1: p(0, 0), control2: p(0, 57.06)),
        .curve(to: p(16, 39), control1: p(27.68, 66.97), control2: p(42.35, 52.75)),
        .curve(to: p(26, 17), control1: p(17.35, 35.41), control2: p(26, 17)),
        .line(p(38, 34)),
        .line(p(49, 17)),
        .line(p(67, 51.27)),
        .line(p(67, 0)),
        .line(p(0, 0)),
        .close,
    ]
}
