import Foundation
import Testing

@testable import TransitionCore

@Suite("Animators")
struct AnimatorTests {
    static func layer(_ id: LayerID, in layers: [LayerState]) -> LayerState? { layers.first { $0.id == id } }

    @Test("pop present: corner radius 20/xScale → 0 over half the duration, then held")
    func popCornerRadius() throws {
        let configuration = TransitionConfiguration(kind: .pop)  // 1 s, origin 120 × 160 in 390 × 844
        let pop = PopAnimator(configuration: configuration)
        let xScale = 120.0 / 390.0
        let start = 20 / xScale  // 65 pt in the full-size layer = 20 pt on screen
        let cases: [(Double, Double)] = [
            (0, start), (0.125, start * 0.75), (0.25, start * 0.5), (0.5, 0), (0.8, 0), (1, 0),
        ]
        for (t, radius) in cases {
            let herb = try #require(Self.layer(.to, in: pop.layers(at: t)))
            #expect(abs(herb.cornerRadius - radius) < 1e-12, "t = \(t)")
        }
        let first = pop.layers(at: 0)
        let herb = try #require(Self.layer(.to, in: first))
        #expect(herb.transform == AffineTransform(scaleX: xScale, y: 160.0 / 844.0))
        #expect(herb.center == Point(x: 208, y: 724))  // the thumbnail's centre
        #expect(Self.layer(.thumbnail, in: first)?.opacity == 1)
        #expect(Self.layer(.thumbnail, in: pop.layers(at: 0.3))?.opacity == 0)  // hidden while presented
        // the end: the list is removed, the detail fills the screen
        #expect(
            pop.layers(at: 1) == [
                LayerState(
                    id: .to, content: .presented, center: Point(x: 195, y: 422), bounds: Size(width: 390, height: 844),
                    z: 2)
            ])
    }

    @Test("pop present rides a damping-0.4 spring: it overshoots the full screen, then settles")
    func popSpring() throws {
        let pop = PopAnimator(configuration: TransitionConfiguration(kind: .pop))
        let peak = stride(from: 0.0, to: 1.0, by: 0.01).map { pop.layers(at: $0)[2].transform.a }.max()!
        #expect(peak > 1.1)
        #expect(abs(pop.layers(at: 0.999)[2].transform.a - 1) < 1e-3)
    }

    @Test("pop dismiss: the detail shrinks onto the thumbnail, which reappears when it completes")
    func popDismiss() throws {
        var configuration = TransitionConfiguration(kind: .pop)
        configuration.operation = .dismiss
        let pop = PopAnimator(configuration: configuration)
        let xScale = 120.0 / 390.0
        #expect(Self.layer(.from, in: pop.layers(at: 0))?.cornerRadius == 0)
        #expect(abs(Self.layer(.from, in: pop.layers(at: 0.25))!.cornerRadius - 10 / xScale) < 1e-12)
        #expect(Self.layer(.from, in: pop.layers(at: 0.75))?.cornerRadius == 20 / xScale)
        #expect(Self.layer(.thumbnail, in: pop.layers(at: 0.99))?.opacity == 0)
        let end = pop.layers(at: 1)
        #expect(end.map(\.id) == [.to, .thumbnail])
        #expect(Self.layer(.thumbnail, in: end)?.opacity == 1)
    }

    @Test("reveal push: identity → translate(0, −10)·scale(150), ease-in, at t = 0, ½, 1")
    func revealTransform() throws {
        let reveal = RevealAnimator(configuration: TransitionConfiguration(kind: .reveal))
        let start = reveal.layers(at: 0)
        #expect(start.map(\.id) == [.from, .logo, .to, .mask])
        #expect(Self.layer(.logo, in: start)?.transform == .identity)
        #expect(Self.layer(.logo, in: start)?.center == Point(x: 195, y: 452))  // 30 pt below centre
        #expect(Self.layer(.mask, in: start)?.center == Point(x: 195, y: 422))
        #expect(Self.layer(.to, in: start)?.opacity == 0)
        #expect(Self.layer(.to, in: start)?.mask == .mask)

        let f = 0.3153568125725393  // easeIn(0.5)
        let middle = reveal.layers(at: 1.0)
        let zoom = try #require(Self.layer(.mask, in: middle)).transform
        #expect(abs(zoom.a - (1 + 149 * f)) < 1e-9 && abs(zoom.d - (1 + 149 * f)) < 1e-9)
        #expect(abs(zoom.ty - (-1500 * f)) < 1e-9 && zoom.tx == 0 && zoom.b == 0 && zoom.c == 0)
        #expect(Self.layer(.logo, in: middle)?.transform == zoom)
        #expect(Self.layer(.to, in: middle)?.opacity == 0.5)  // linear fade-in

        let end = reveal.layers(at: 2.0)
        #expect(
            end == [
                LayerState(
                    id: .to, content: .presented, center: Point(x: 195, y: 422), bounds: Size(width: 390, height: 844),
                    z: 2)
            ])
        // just before the end the mask is still on, fully zoomed
        #expect(Self.layer(.mask, in: reveal.layers(at: 1.999_999))!.transform.a > 149.99)
    }

    @Test("reveal pop: the source shrinks to 0.01 over the destination")
    func revealPop() {
        var configuration = TransitionConfiguration(kind: .reveal)
        configuration.operation = .dismiss
        let reveal = RevealAnimator(configuration: configuration)
        #expect(reveal.layers(at: 1.999_999_999)[1].transform.a < 0.011)
        #expect(reveal.layers(at: 1.0)[1].transform.a == 1 - 0.99 * 0.3153568125725393)
        #expect(reveal.layers(at: 2).map(\.id) == [.to])
    }

    @Test("push: the new screen comes in from the right")
    func push() {
        let push = PushAnimator(configuration: TransitionConfiguration(kind: .push))
        #expect(push.layers(at: 0)[1].center.x == 195 + 390)
        #expect(push.layers(at: 0.25)[1].center.x == 195 + 195)  // easeInEaseOut(0.5) = 0.5
        #expect(push.layers(at: 0.25)[0].center.x == 195 - 390 * 0.3 * 0.5)
        #expect(push.layers(at: 0.5).map(\.center.x) == [195])
    }

    @Test("cover vertical slides up from the bottom, and back down on dismissal")
    func coverVertical() {
        var configuration = TransitionConfiguration(kind: .coverVertical)
        let present = CoverVerticalAnimator(configuration: configuration)
        #expect(present.layers(at: 0)[1].center.y == 422 + 844)
        #expect(present.layers(at: 0.5)[0].center.y == 422)
        configuration.operation = .dismiss
        let dismiss = CoverVerticalAnimator(configuration: configuration)
        #expect(dismiss.layers(at: 0.25)[1].center.y == 422 + 422)
    }

    @Test("flip horizontal turns a one-sided sheet in 3-D with perspective")
    func flip() throws {
        let flip = FlipHorizontalAnimator(configuration: TransitionConfiguration(kind: .flipHorizontal))
        let early = flip.layers(at: 0.2)
        let from = try #require(Self.layer(.from, in: early))
        let to = try #require(Self.layer(.to, in: early))
        #expect(from.opacity == 1 && to.opacity == 0)
        #expect(try #require(from.transform3D).m34 < 0)  // cos θ · (−1/1000): rotation, then perspective
        // perspective: the edge turning toward the eye looks taller than the one turning away
        let corners = try #require(from.projectedCorners())
        let leftHeight = corners[3].y - corners[0].y
        let rightHeight = corners[2].y - corners[1].y
        #expect(leftHeight > 844 && rightHeight < 844)
        let late = flip.layers(at: 0.6)
        #expect(Self.layer(.from, in: late)?.opacity == 0 && Self.layer(.to, in: late)?.opacity == 1)
        let end = try #require(flip.layers(at: 0.75).first)
        #expect(end.id == .to)
        let endCorners = try #require(end.projectedCorners())
        let expected = [Point(x: 0, y: 0), Point(x: 390, y: 0), Point(x: 390, y: 844), Point(x: 0, y: 844)]
        for (got, want) in zip(endCorners, expected) {
            #expect(abs(got.x - want.x) < 1e-9 && abs(got.y - want.y) < 1e-9)
        }
    }

    @Test("partial curl folds the page along a rising line and mirrors the lifted part")
    func partialCurl() throws {
        let curl = PartialCurlAnimator(configuration: TransitionConfiguration(kind: .partialCurl))
        let start = curl.layers(at: 0)
        #expect(start.map(\.id) == [.to, .from, .curl, .fold])
        // At the start the fold lies below the page: the mask keeps every page corner.
        let fold = try #require(Self.layer(.fold, in: start))
        let inverse = fold.transform.inverted()
        for corner in [Point(x: 0, y: 0), Point(x: 390, y: 0), Point(x: 390, y: 844), Point(x: 0, y: 844)] {
            let local = inverse.apply(to: corner - fold.center)
            #expect(abs(local.x) <= fold.bounds.width / 2 && abs(local.y) <= fold.bounds.height / 2 + 1e-9)
        }
        // At the end the page stays, curled, over the presented screen; the fold's middle is at 60 %.
        let end = curl.layers(at: 0.75)
        #expect(end.map(\.id) == [.to, .from, .curl, .fold])
        let endFold = try #require(Self.layer(.fold, in: end))
        let mid = endFold.transform.inverted().apply(to: Point(x: 195, y: 844 * 0.6) - endFold.center)
        #expect(abs(mid.y - endFold.bounds.height / 2) < 1e-9)  // on the mask's bottom edge
        // The back of the page is the page reflected across the fold: det = −1.
        #expect(abs(try #require(Self.layer(.curl, in: end)).transform.determinant + 1) < 1e-12)
    }

    @Test("every kind, both ways: start and end states are stable, ids documented, opacities in 0…1")
    func everyKind() {
        for kind in TransitionKind.allCases {
            for operation in TransitionOperation.allCases {
                var configuration = TransitionConfiguration(kind: kind)
                configuration.operation = operation
                let animator = Animator(configuration: configuration)
                #expect(animator.duration == kind.defaultDuration)
                for step in 0...50 {
                    let layers = animator.layers(at: Double(step) / 50 * animator.duration)
                    #expect(!layers.isEmpty)
                    #expect(Set(layers.map(\.id)).count == layers.count, "\(kind) ids are unique")
                    for layer in layers {
                        #expect((0...1).contains(layer.opacity))
                        #expect(layer.center.isFinite)
                        if let mask = layer.mask { #expect(layers.contains { $0.id == mask }) }
                    }
                }
            }
        }
    }
}
