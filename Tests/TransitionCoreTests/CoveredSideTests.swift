import Foundation
import Testing

@testable import TransitionCore

/// The covered side's own animation (`CoveredSide`): for every kind, the covered view starts on
/// the picture before and ends on the picture after, and at mid-progress it is where its source
/// says. The scene: a phone whose root is the navigation controller `home` showing `list`.
@Suite("Covered side") struct CoveredSideTests {
    static let bounds = Rect(x: 0, y: 0, width: 390, height: 844)

    static func root() -> SceneController {
        .navigation("home", stack: [SceneController(id: "list")])
    }

    /// `home` presenting `detail` full screen with `kind`, in flight.
    static func presenting(_ kind: TransitionKind) throws -> Scene {
        var scene = try Scene(root: root())
        try scene.present(.controller(SceneController(id: "detail", transitionStyle: kind)))
        return scene
    }

    /// `detail` (presented full screen with `kind`) being dismissed back to `home`, in flight.
    static func dismissing(_ kind: TransitionKind) throws -> Scene {
        var scene = try Scene(root: root())
        try scene.present(.controller(SceneController(id: "detail", transitionStyle: kind)), animated: false)
        try scene.dismiss()
        return scene
    }

    /// `next` pushed onto `home` over `list` with `kind`, in flight.
    static func pushing(_ kind: TransitionKind) throws -> Scene {
        var scene = try Scene(root: root())
        try scene.push(SceneController(id: "next"), transition: kind)
        return scene
    }

    /// `next` (pushed with `kind`) popped back to `list`, in flight: the edge-swipe pop's plan.
    static func popping(_ kind: TransitionKind) throws -> Scene {
        var scene = try Scene(root: root())
        try scene.push(SceneController(id: "next"), transition: kind, animated: false)
        let plan = try scene.pop()
        #expect(plan.edgeSwipe)
        return scene
    }

    /// What a frame draws at `progress`: the animator's layers (container coordinates), the
    /// covered view and its shade as the frame encodes them (nil once the animator drops it).
    struct Drawn {
        var animator: [LayerState]
        var covered: LayerState?
        var shade: LayerState?
        var origin: Point

        /// The covered view's corners in the scene (interface coordinates).
        var corners: [Point]? {
            covered?.projectedCorners()?.map { Point(x: $0.x + origin.x, y: $0.y + origin.y) }
        }
        var shadeOpacity: Double { shade?.opacity ?? 0 }
        func layer(_ id: LayerID) -> LayerState? { animator.first { $0.id == id } }
    }

    static func drawn(_ scene: Scene, at progress: Double) throws -> Drawn {
        let plan = try #require(scene.inFlight)
        let side = try #require(scene.picture.covered)
        let animator = Animator(configuration: plan.configuration(from: TransitionConfiguration()))
        let layers = animator.layers(at: progress * animator.duration)
        let covered = layers.first { $0.id == side.layerID }.map { side.layer($0) }
        return Drawn(
            animator: layers, covered: covered, shade: covered.flatMap { side.shade(over: $0, progress: progress) },
            origin: plan.container.origin)
    }

    static func corners(_ rect: Rect) -> [Point] {
        [
            Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
            Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY),
        ]
    }

    static func close(_ a: [Point]?, _ b: [Point], within tolerance: Double = 1e-6) -> Bool {
        guard let a, a.count == b.count else { return false }
        return zip(a, b).allSatisfy { abs($0.x - $1.x) <= tolerance && abs($0.y - $1.y) <= tolerance }
    }

    /// The covered controller's frame in a picture: the union of its views.
    static func frame(of views: [String], in picture: [SceneLayer]) throws -> Rect {
        let mine = picture.filter { views.contains($0.controller) && $0.role != .dimming }
        let first = try #require(mine.first)
        return mine.reduce(first.frame) { union, layer in
            let minX = min(union.minX, layer.frame.minX), minY = min(union.minY, layer.frame.minY)
            return Rect(
                x: minX, y: minY, width: max(union.maxX, layer.frame.maxX) - minX,
                height: max(union.maxY, layer.frame.maxY) - minY)
        }
    }

    // MARK: - Every kind: the picture before at 0, the picture after at 1

    /// Every kind with a covered side of its own (the zoom keeps its covered view still:
    /// `stillKindsHaveNoCoveredSide`).
    static let animatedKinds = TransitionKind.allCases.filter { CoveredSide.effect(of: $0) != .still }

    @Test func stillKindsHaveNoCoveredSide() {
        #expect(CoveredSide.effect(of: .zoom) == .still)
        #expect(Self.animatedKinds.count == TransitionKind.allCases.count - 1)
    }

    @Test(arguments: Self.animatedKinds)
    func aPresentStartsOnThePictureBeforeAndLeavesIt(kind: TransitionKind) throws {
        let scene = try Self.presenting(kind)
        let side = try #require(scene.picture.covered)
        #expect(side.controller == "home" && side.views == ["home", "list"])
        let before = try Self.frame(of: side.views, in: scene.visibleLayers)
        #expect(before == Self.bounds && side.frame == before)
        let start = try Self.drawn(scene, at: 0)
        #expect(Self.close(start.corners, Self.corners(before)))
        #expect(start.covered?.opacity == 1 && start.shadeOpacity == 0)
        // The picture after has none of its views (the presenter's view is removed) ...
        let after = try #require(scene.pendingLayers)
        #expect(!after.contains { side.views.contains($0.controller) })
        // ... and at 1 the animator draws it no more — but the partial curl, whose page stays
        // curled over the presented view (Apple, `UIModalTransitionStyle.partialCurl`: on
        // dismissal "the curled up page unfurls itself back on top of the presented view").
        let end = try Self.drawn(scene, at: 1)
        if kind == .partialCurl {
            #expect(end.covered?.mask == .fold)
        } else {
            #expect(end.covered == nil)
        }
    }

    @Test(arguments: Self.animatedKinds)
    func aDismissalEndsOnThePictureAfter(kind: TransitionKind) throws {
        let scene = try Self.dismissing(kind)
        let side = try #require(scene.picture.covered)
        #expect(side.controller == "home" && side.layerID == .to)
        let after = try Self.frame(of: side.views, in: try #require(scene.pendingLayers))
        #expect(!scene.visibleLayers.contains { side.views.contains($0.controller) })
        let end = try Self.drawn(scene, at: 1)
        #expect(Self.close(end.corners, Self.corners(after)))
        #expect(end.covered?.opacity == 1 && end.shadeOpacity == 0 && end.covered?.mask == nil)
        // At 0 the arriving view does not show: transparent, or under the dismissed view, which
        // covers the container opaque (the picture before) — but the curl's page, curled.
        let start = try Self.drawn(scene, at: 0)
        let covered = try #require(start.covered)
        if kind == .partialCurl {
            #expect(covered.mask == .fold)
        } else if covered.opacity > 0 {
            let moving = try #require(start.layer(.from))
            #expect(moving.opacity == 1 && moving.z > covered.z)
            #expect(Self.close(moving.projectedCorners(), Self.corners(Rect(origin: .zero, size: side.container.size))))
        }
    }

    @Test(arguments: Self.animatedKinds)
    func aPushAndAPopEndOnTheirPictures(kind: TransitionKind) throws {
        let push = try Self.pushing(kind)
        let covered = try #require(push.picture.covered)
        #expect(covered.controller == "list" && covered.views == ["list"])
        let child = try Self.frame(of: ["list"], in: push.visibleLayers)
        #expect(child == covered.container)  // the navigation controller's content, below its bar
        let start = try Self.drawn(push, at: 0)
        #expect(Self.close(start.corners, Self.corners(child)) && start.covered?.opacity == 1)
        let pop = try Self.popping(kind)
        let end = try Self.drawn(pop, at: 1)
        #expect(Self.close(end.corners, Self.corners(child)) && end.covered?.opacity == 1)
        #expect(end.shadeOpacity == 0)
    }
}
