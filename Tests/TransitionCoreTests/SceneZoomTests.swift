import Testing

@testable import TransitionCore

/// The zoom in the scene model (Scene+Zoom.swift): which view a zoom grows out of, its rect in
/// the transition's container, the refusals, and the dismissal gesture a zoom presentation gets.
/// Apple: `preferredTransition` and `UIViewController.Transition.zoom(options:sourceViewProvider:)`
/// are iOS 18.0+; the source provider returns the view the transition zooms from (a cell, a
/// thumbnail) — "Enhancing your app with fluid transitions".
@Suite("The zoom in the scene")
struct SceneZoomTests {
    static let thumb = SceneView(id: "thumb", frame: Rect(x: 148, y: 200, width: 120, height: 160))
    static let strip = SceneView(
        id: "strip", kind: .horizontalScroll, frame: Rect(x: 0, y: 500, width: 390, height: 90))

    static func scene(_ ios: IOSVersion = .newest) throws -> Scene {
        let grid = SceneController(id: "grid", views: [thumb, strip])
        return try Scene(
            root: .navigation("nav", stack: [grid]), options: SceneOptions(ios: ios))
    }

    static func zoomPush(_ scene: inout Scene, source: String?, animated: Bool = true) throws(SceneError)
        -> SceneTransitionPlan
    {
        let before = scene
        var copy = scene
        let plan = try copy.push(SceneController(id: "photo"), transition: .zoom, animated: animated)
        let zoomed = try copy.attachZoom(to: plan, source: source, before: before)
        scene = copy
        return zoomed
    }

    /// The pushing controller's view starts below the bar; the push's container is that content
    /// frame, so the source's rect in the container is the view's own frame.
    @Test func aPushZoomsFromTheSourceInTheContainer() throws {
        var scene = try Self.scene()
        let plan = try Self.zoomPush(&scene, source: "thumb")
        #expect(plan.zoomSource == ZoomSource(controller: "grid", view: "thumb"))
        #expect(plan.container.minY == 47 + 44)
        #expect(plan.zoomFrame == Self.thumb.frame)
        _ = scene.end(completed: true)
        // The pop zooms back into the same view.
        var popped = scene
        let pop = try popped.pop()
        let back = try popped.attachZoom(to: pop, source: nil, before: scene)
        #expect(back.kind == .zoom && back.zoomSource == plan.zoomSource && back.zoomFrame == Self.thumb.frame)
    }

    /// Dismissed (even at once), the controller forgets its source: presented again by id with
    /// another transition, scene-state shows none.
    @Test func aDismissedControllerForgetsItsSource() throws {
        var scene = try Scene(root: SceneController(id: "library", views: [Self.thumb]))
        func perform(_ body: (inout Scene) throws(SceneError) -> SceneTransitionPlan, source: String?) throws {
            let before = scene
            var copy = scene
            let plan = try body(&copy)
            _ = try copy.attachZoom(to: plan, source: source, before: before)
            scene = copy
        }
        try perform(
            { (s: inout Scene) throws(SceneError) in
                try s.present(SceneController(id: "photo"), transition: .zoom, animated: false)
            }, source: "thumb")
        try perform({ (s: inout Scene) throws(SceneError) in try s.dismiss(animated: false) }, source: nil)
        #expect(scene.zoomSource(of: "photo") == nil && scene.presentations.isEmpty)
        try perform(
            { (s: inout Scene) throws(SceneError) in
                try s.present(.id("photo"), transition: .coverVertical, animated: false)
            }, source: nil)
        #expect(scene.state.presentations.first?.sourceView == nil)
    }

    @Test(arguments: [("nope", "no view"), ("strip", "horizontal-scroll")])
    func badSourcesAreRefused(_ source: String, _ words: String) throws {
        var scene = try Self.scene()
        let before = scene
        let error = try #require(throws: SceneError.self) { try Self.zoomPush(&scene, source: source) }
        #expect(error.code == "invalid-source" && error.description.contains(words), "\(error.description)")
        #expect(scene == before)
    }

    @Test func aZoomNeedsASourceAndASourceNeedsAZoom() throws {
        var scene = try Self.scene()
        let missing = try #require(throws: SceneError.self) { try Self.zoomPush(&scene, source: nil) }
        #expect(missing.code == "invalid-source")
        var copy = scene
        let push = try copy.push(SceneController(id: "photo"))
        let stray = try #require(throws: SceneError.self) {
            try copy.attachZoom(to: push, source: "thumb", before: scene)
        }
        #expect(stray.code == "invalid-source" && stray.description.contains("runs push"))
    }

    @Test func theZoomIsIOS18Plus() throws {
        var scene = try Self.scene(.ios17)
        let error = try #require(throws: SceneError.self) { try Self.zoomPush(&scene, source: "thumb") }
        #expect(error.code == "unavailable-in-ios" && error.description.contains("iOS 18+"))
        var newer = try Self.scene(.ios18)
        #expect(try Self.zoomPush(&newer, source: "thumb").kind == .zoom)
    }

    /// A zoom presentation is full screen, and its drag down is the scene's own dismissal.
    @Test func aZoomPresentationIsFullScreenAndOffersItsDismissal() throws {
        var scene = try Scene(root: SceneController(id: "library", views: [Self.thumb]))
        let before = scene
        var copy = scene
        let plan = try copy.present(
            SceneController(id: "photo", presentationStyle: .pageSheet), transition: .zoom, animated: false)
        _ = try copy.attachZoom(to: plan, source: "thumb", before: before)
        scene = copy
        #expect(scene.presentations.first?.style == .fullScreen)
        #expect(scene.zoomDismissal == "photo" && scene.dismissGesture == .none)
        #expect(scene.state.presentations.first?.sourceView == ZoomSource(controller: "library", view: "thumb"))
    }
}

/// A controller's named views as layers of the picture (SceneLayer+Views.swift): right above
/// their controller's view, placed and scaled with it.
@Suite("Named views as layers")
struct SceneViewLayerTests {
    @Test func viewsFollowTheirController() throws {
        var scene = try Scene(root: SceneController(id: "library", views: [SceneZoomTests.thumb]))
        let rest = scene.picture.before
        #expect(rest.map(\.role) == [.root, .view])
        #expect(rest[1].frame == SceneZoomTests.thumb.frame && rest[1].view == "thumb")
        // Pushed back under a phone sheet: the view scales with its presenter.
        try scene.present(SceneController(id: "sheet", presentationStyle: .pageSheet), animated: false)
        let root = try #require(scene.picture.before.first { $0.role == .root })
        let view = try #require(scene.picture.before.first { $0.role == .view })
        #expect(root.scale < 1 && view.scale == root.scale)
        #expect(abs(view.frame.minX - (root.frame.minX + 148 * root.scale)) < 1e-9)
        #expect(abs(view.frame.width - 120 * root.scale) < 1e-9)
    }

    @Test func noViewsNoLayers() throws {
        let scene = try Scene(root: SceneController(id: "plain"))
        #expect(scene.picture.before.map(\.role) == [.root])
    }
}
