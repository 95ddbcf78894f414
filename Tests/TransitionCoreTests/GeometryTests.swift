import Foundation
import Testing

@testable import TransitionCore

@Suite("Geometry")
struct GeometryTests {
    @Test("concatenation applies the receiver first, as CGAffineTransformConcat")
    func concatenationOrder() {
        let translate = AffineTransform(translationX: 10, y: 0)
        let scale = AffineTransform(scaleX: 2, y: 2)
        // translate, then scale: (1, 1) → (11, 1) → (22, 2)
        #expect(translate.concatenating(scale).apply(to: Point(x: 1, y: 1)) == Point(x: 22, y: 2))
        // scale, then translate: (1, 1) → (2, 2) → (12, 2)
        #expect(scale.concatenating(translate).apply(to: Point(x: 1, y: 1)) == Point(x: 12, y: 2))
        // CGAffineTransformTranslate(t, …) puts the translation before t.
        #expect(scale.translatedBy(x: 10, y: 0) == translate.concatenating(scale))
    }

    @Test("the reveal's zoom scales its translation: ty = −1500")
    func revealZoom() {
        #expect(RevealAnimator.zoomed == AffineTransform(a: 150, b: 0, c: 0, d: 150, tx: 0, ty: -1500))
    }

    @Test("rotation turns clockwise on a y-down screen")
    func rotation() {
        let quarter = AffineTransform(rotationAngle: .pi / 2)
        let p = quarter.apply(to: Point(x: 1, y: 0))
        #expect(abs(p.x) < 1e-15 && abs(p.y - 1) < 1e-15)
    }

    @Test("inversion undoes a transform; a singular one is returned unchanged")
    func inversion() {
        let t = AffineTransform(rotationAngle: 0.3).concatenating(AffineTransform(scaleX: 2, y: 0.5))
            .concatenating(AffineTransform(translationX: 7, y: -3))
        let roundTrip = t.concatenating(t.inverted())
        for (got, want) in zip(roundTrip.components, AffineTransform.identity.components) {
            #expect(abs(got - want) < 1e-12)
        }
        let singular = AffineTransform(scaleX: 0, y: 1)
        #expect(singular.inverted() == singular)
    }

    @Test("3-D rotation about y matches CATransform3DMakeRotation; perspective divides by w")
    func transform3D() {
        let angle = 0.4
        let r = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)
        #expect(r.m11 == cos(angle) && r.m13 == -sin(angle) && r.m31 == sin(angle) && r.m33 == cos(angle))
        let m = r.concatenating(Transform3D(perspectiveEyeDistance: 1000))
        // A point at x = 100: rotated to (100·cos, 0, −100·sin), w = 1 + 100·sin/1000.
        let projected = m.project(Point(x: 100, y: 50))!
        let w = 1 + 100 * sin(angle) / 1000
        #expect(abs(projected.x - 100 * cos(angle) / w) < 1e-12)
        #expect(abs(projected.y - 50 / w) < 1e-12)
        #expect(m.affine == AffineTransform(a: cos(angle), b: 0, c: 0, d: 1, tx: 0, ty: 0))
        // CATransform3DRotate(t, …) applies the rotation before t.
        #expect(Transform3D(perspectiveEyeDistance: 1000).rotated(by: angle, x: 0, y: 1, z: 0) == m)
    }

    @Test("a 3-D layer's corners are projected, a 2-D layer's transformed about its centre")
    func projectedCorners() {
        var layer = LayerState(
            id: .to, content: .presented, center: Point(x: 100, y: 100), bounds: Size(width: 40, height: 20), z: 0)
        layer.transform = AffineTransform(scaleX: 2, y: 1)
        #expect(
            layer.projectedCorners()
                == [Point(x: 60, y: 90), Point(x: 140, y: 90), Point(x: 140, y: 110), Point(x: 60, y: 110)])
        layer.transform3D = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0)
            .concatenating(Transform3D(perspectiveEyeDistance: 1000))
        let edgeOn = layer.projectedCorners()!
        #expect(edgeOn.allSatisfy { abs($0.x - 100) < 1e-9 })  // seen edge-on: a vertical line
    }
}
