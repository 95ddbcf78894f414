import TransitionCore

/// How far one picture is from another, layer by layer: the largest displacement of any corner
/// of any layer (projected through a 3-D layer's perspective) or of its corner radius, in
/// points, and the largest opacity difference. Two pictures that list different layers are
/// infinitely apart. The page measures its predictions the same way
/// (`web/js/prediction.js` `pictureError`).
public struct PictureDeviation: Equatable, Sendable {
    public var points: Double
    public var opacity: Double

    /// Within `TrackingTable`'s tolerances.
    public var fits: Bool { points <= TrackingTable.tolerance && opacity <= TrackingTable.opacityTolerance }
}

extension TrackingTable {
    public static func deviation(_ a: [LayerState], _ b: [LayerState]) -> PictureDeviation {
        let apart = PictureDeviation(points: .infinity, opacity: .infinity)
        guard a.count == b.count else { return apart }
        var out = PictureDeviation(points: 0, opacity: 0)
        for (x, y) in zip(a, b) {
            guard x.id == y.id else { return apart }
            switch (x.projectedCorners(), y.projectedCorners()) {
            case (nil, nil):
                break
            case let (p?, q?):
                for (u, v) in zip(p, q) {
                    let dx = u.x - v.x, dy = u.y - v.y
                    out.points = max(out.points, (dx * dx + dy * dy).squareRoot())
                }
            default:
                return apart
            }
            out.points = max(out.points, abs(x.cornerRadius - y.cornerRadius))
            out.opacity = max(out.opacity, abs(x.opacity - y.opacity))
        }
        if out.points.isNaN || out.opacity.isNaN { return apart }
        return out
    }
}
