import Foundation

/// A 4×4 transform with `CATransform3D` semantics: row vectors, `m41 m42 m43` is the
/// translation, `m34 = −1/eyeDistance` gives perspective, and `t1.concatenating(t2)` means
/// "apply t1, then t2" — `CATransform3DConcat(t1, t2)`.
public struct Transform3D: Equatable, Hashable, Sendable {
    public var m11: Double, m12: Double, m13: Double, m14: Double
    public var m21: Double, m22: Double, m23: Double, m24: Double
    public var m31: Double, m32: Double, m33: Double, m34: Double
    public var m41: Double, m42: Double, m43: Double, m44: Double

    public init(
        m11: Double, m12: Double, m13: Double, m14: Double,
        m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double,
        m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    public static let identity = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0,
        m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1
    )

    /// `CATransform3DMakeTranslation`.
    public init(translationX x: Double, y: Double, z: Double) {
        self = .identity
        m41 = x; m42 = y; m43 = z
    }

    /// `CATransform3DMakeScale`.
    public init(scaleX x: Double, y: Double, z: Double) {
        self = .identity
        m11 = x; m22 = y; m33 = z
    }

    /// `CATransform3DMakeRotation(angle, x, y, z)` about a (normalised) axis.
    public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0 else {
            self = .identity
            return
        }
        let (ux, uy, uz) = (x / length, y / length, z / length)
        let cosine = cos(angle)
        let sine = sin(angle)
        let t = 1 - cosine
        self.init(
            m11: cosine + t * ux * ux, m12: t * ux * uy + sine * uz, m13: t * ux * uz - sine * uy, m14: 0,
            m21: t * ux * uy - sine * uz, m22: cosine + t * uy * uy, m23: t * uy * uz + sine * ux, m24: 0,
            m31: t * ux * uz + sine * uy, m32: t * uy * uz - sine * ux, m33: cosine + t * uz * uz, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1
        )
    }

    /// The identity with `m34 = −1/eyeDistance`: the usual "perspective" transform.
    public init(perspectiveEyeDistance distance: Double) {
        self = .identity
        m34 = -1 / distance
    }

    /// `CATransform3DMakeAffineTransform`.
    public init(_ affine: AffineTransform) {
        self = .identity
        m11 = affine.a; m12 = affine.b
        m21 = affine.c; m22 = affine.d
        m41 = affine.tx; m42 = affine.ty
    }

    /// `CATransform3DConcat(self, other)`: `self` first, then `other`.
    public func concatenating(_ o: Transform3D) -> Transform3D {
        Transform3D(
            m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31 + m14 * o.m41,
            m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32 + m14 * o.m42,
            m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33 + m14 * o.m43,
            m14: m11 * o.m14 + m12 * o.m24 + m13 * o.m34 + m14 * o.m44,
            m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31 + m24 * o.m41,
            m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32 + m24 * o.m42,
            m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33 + m24 * o.m43,
            m24: m21 * o.m14 + m22 * o.m24 + m23 * o.m34 + m24 * o.m44,
            m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31 + m34 * o.m41,
            m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32 + m34 * o.m42,
            m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33 + m34 * o.m43,
            m34: m31 * o.m14 + m32 * o.m24 + m33 * o.m34 + m34 * o.m44,
            m41: m41 * o.m11 + m42 * o.m21 + m43 * o.m31 + m44 * o.m41,
            m42: m41 * o.m12 + m42 * o.m22 + m43 * o.m32 + m44 * o.m42,
            m43: m41 * o.m13 + m42 * o.m23 + m43 * o.m33 + m44 * o.m43,
            m44: m41 * o.m14 + m42 * o.m24 + m43 * o.m34 + m44 * o.m44
        )
    }

    /// `CATransform3DRotate(self, …)`: the rotation is applied before `self`.
    public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    /// `CATransform3DGetAffineTransform`: the best 2-D stand-in (drops z and perspective).
    public var affine: AffineTransform {
        AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }

    /// Projects a point of the layer's plane (z = 0, relative to the anchor point) through the
    /// transform and divides by w, as Core Animation renders it. Nil when the point falls
    /// behind the eye (w ≤ 0).
    public func project(_ point: Point) -> Point? {
        let x = point.x * m11 + point.y * m21 + m41
        let y = point.x * m12 + point.y * m22 + m42
        let w = point.x * m14 + point.y * m24 + m44
        guard w > 0 else { return nil }
        return Point(x: x / w, y: y / w)
    }

    /// The 16 numbers in wire order m11…m44.
    public var components: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }
}
