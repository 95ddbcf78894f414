import Foundation

/// A 2-D affine transform with `CGAffineTransform` semantics.
///
/// The matrix is `[a b 0; c d 0; tx ty 1]` applied to row vectors, so
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`, and `t1.concatenating(t2)` means
/// "apply t1, then t2" — exactly `CGAffineTransformConcat(t1, t2)`.
public struct AffineTransform: Equatable, Hashable, Sendable {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// `CGAffineTransformMakeTranslation`.
    public init(translationX x: Double, y: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// `CGAffineTransformMakeScale`.
    public init(scaleX x: Double, y: Double) {
        self.init(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// `CGAffineTransformMakeRotation`: positive angles turn clockwise on screen (y points down).
    public init(rotationAngle angle: Double) {
        let cosine = cos(angle)
        let sine = sin(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    public var isIdentity: Bool { self == .identity }

    /// `CGAffineTransformConcat(self, other)`: `self` is applied first, then `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty
        )
    }

    /// `CGAffineTransformTranslate(self, x, y)`: the translation is applied before `self`.
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// `CGAffineTransformScale(self, x, y)`: the scale is applied before `self`.
    public func scaledBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(scaleX: x, y: y).concatenating(self)
    }

    /// `CGAffineTransformRotate(self, angle)`: the rotation is applied before `self`.
    public func rotated(by angle: Double) -> AffineTransform {
        AffineTransform(rotationAngle: angle).concatenating(self)
    }

    public var determinant: Double { a * d - b * c }

    /// `CGAffineTransformInvert`; like Core Graphics, a singular matrix is returned unchanged.
    public func inverted() -> AffineTransform {
        let det = determinant
        guard det != 0, det.isFinite else { return self }
        return AffineTransform(
            a: d / det,
            b: -b / det,
            c: -c / det,
            d: a / det,
            tx: (c * ty - d * tx) / det,
            ty: (b * tx - a * ty) / det
        )
    }

    /// `CGPointApplyAffineTransform`.
    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// Element-wise interpolation. For transforms without rotation this equals Core Animation's
    /// decomposed (scale, then translation) interpolation, which is all the animators need.
    public func interpolated(to other: AffineTransform, fraction f: Double) -> AffineTransform {
        AffineTransform(
            a: a + (other.a - a) * f,
            b: b + (other.b - b) * f,
            c: c + (other.c - c) * f,
            d: d + (other.d - d) * f,
            tx: tx + (other.tx - tx) * f,
            ty: ty + (other.ty - ty) * f
        )
    }

    /// The six numbers in wire order `[a, b, c, d, tx, ty]`.
    public var components: [Double] { [a, b, c, d, tx, ty] }
}
