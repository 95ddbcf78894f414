import Testing

@testable import TransitionCore

/// The current-context walk (REFERENCE §3, seed 003).
@Suite("Scene context")
struct SceneContextTests {
    typealias F = SceneFixtures

    static func scene(navDefines: Bool = false, homeDefines: Bool = false, homeProvides: Bool = false) throws -> Scene {
        var home = F.plain("home")
        home.definesPresentationContext = homeDefines
        home.providesPresentationContextTransitionStyle = homeProvides
        home.transitionStyle = .flipHorizontal
        return try Scene(root: .navigation("nav", stack: [home], definesPresentationContext: navDefines))
    }

    @Test("no controller defines a context: current context is full screen from the presenter's layer")
    func noContext() throws {
        var scene = try Self.scene()
        let plan = try scene.present(F.plain("P", .currentContext), from: "home")
        #expect(plan.style == .fullScreen && plan.context == nil && plan.from == "nav")
        #expect(plan.container == SceneDevice.phone.bounds && plan.removesPresenterView)
        #expect(plan.kind == .coverVertical)
        _ = scene.end(completed: true)
        #expect(scene.presentations.first?.style == .fullScreen)
        #expect(scene.visibleControllers == ["P"])
    }

    @Test("no controller defines a context: over current context is over full screen, the views beneath stay")
    func noContextOver() throws {
        var scene = try Self.scene()
        let plan = try scene.present(F.plain("P", .overCurrentContext), from: "home")
        #expect(plan.style == .overFullScreen && plan.context == nil && plan.from == "nav")
        #expect(plan.container == SceneDevice.phone.bounds && !plan.removesPresenterView)
        #expect(plan.startEvents == [.load("P"), event("P", .viewWillAppear)])
        _ = scene.end(completed: true)
        #expect(scene.visibleControllers == ["nav", "home", "P"])
    }

    @Test("the navigation controller defines it: P covers the whole navigation controller, bar included")
    func navigationDefines() throws {
        var scene = try Self.scene(navDefines: true)
        let plan = try scene.present(F.plain("P", .currentContext), from: "home")
        #expect(plan.style == .currentContext && plan.context == "nav" && plan.from == "nav")
        #expect(plan.container == SceneDevice.phone.bounds)
        #expect(
            plan.startEvents == [
                .load("P"), event("nav", .viewWillDisappear), event("home", .viewWillDisappear),
                event("P", .viewWillAppear),
            ])
        _ = scene.end(completed: true)
        #expect(
            scene.visibleLayers == [
                SceneLayer(controller: "P", role: .presented, frame: SceneDevice.phone.bounds, group: "nav")
            ])
    }

    @Test("the child defines it: P covers the child's frame below the bar; the bar stays")
    func childDefines() throws {
        var scene = try Self.scene(homeDefines: true)
        let plan = try scene.present(F.plain("P", .currentContext))  // from the top-most: nav → walk nav… no: from nav
        // From the top-most (nav) the walk finds nothing: nav does not define, home is below it.
        #expect(plan.style == .fullScreen)
        _ = scene.end(completed: false)

        let content = Rect(x: 0, y: 91, width: 390, height: 753)
        let inside = try scene.present(F.plain("P", .currentContext), from: "home")
        #expect(inside.context == "home" && inside.from == "home" && inside.container == content)
        #expect(inside.kind == .coverVertical)  // home does not provide its transition style
        #expect(inside.startEvents == [.load("P"), event("home", .viewWillDisappear), event("P", .viewWillAppear)])
        _ = scene.end(completed: true)
        #expect(
            scene.visibleLayers == [
                SceneLayer(
                    controller: "nav", role: .navigationBar, frame: Rect(x: 0, y: 0, width: 390, height: 91),
                    title: "Home", group: "nav"),
                SceneLayer(controller: "P", role: .presented, frame: content, group: "nav"),
            ])
        #expect(scene.visibleControllers == ["nav", "P"])
        #expect(scene.topMost == "P")
        // Dismissal reveals home again, with P's transition reversed.
        let dismissal = try scene.dismiss()
        #expect(dismissal.context == "home" && dismissal.to == "home" && dismissal.container == content)
        #expect(dismissal.startEvents == [event("P", .viewWillDisappear), event("home", .viewWillAppear)])
    }

    @Test("over current context keeps the context's view and sends it no callbacks")
    func overCurrentContext() throws {
        var scene = try Self.scene(homeDefines: true)
        let plan = try scene.present(F.plain("P", .overCurrentContext), from: "home")
        #expect(plan.context == "home" && !plan.removesPresenterView)
        #expect(plan.startEvents == [.load("P"), event("P", .viewWillAppear)])
        _ = scene.end(completed: true)
        #expect(scene.visibleLayers.map(\.controller) == ["home", "nav", "P"])
    }

    @Test("a context that provides its transition style wins over the presented controller's (seed 003: flip)")
    func providesTransitionStyle() throws {
        var scene = try Self.scene(homeDefines: true, homeProvides: true)
        let plan = try scene.present(F.plain("P", .currentContext), from: "home", transition: .crossDissolve)
        #expect(plan.kind == .flipHorizontal)
        _ = scene.end(completed: true)
        #expect(scene.presentations[0].transition == .flipHorizontal)
        #expect(try scene.dismiss().kind == .flipHorizontal)
    }

    @Test("the walk climbs parents only: from inside a full-screen modal the modal is the context, defined or not")
    func walkStopsAtThePresentation() throws {
        // Apple, definesPresentationContext: UIKit "walks up the view controller hierarchy";
        // suterusu/Experiment_PresentationStyle (geeksrepos.com) logs that the walk checks
        // parent-child relations only ("かくにんするのは親子関係のみでモーダル関係は見ない").
        var root = F.plain("R")
        root.definesPresentationContext = true
        var scene = try Scene(root: root)
        try scene.present(F.plain("X"), animated: false)
        let plan = try scene.present(F.plain("Y", .currentContext))
        #expect(plan.style == .currentContext && plan.from == "X" && plan.context == "X")
        var plain = try F.plainRoot()
        try plain.present(F.plain("X"), animated: false)
        let over = try plain.present(F.plain("Y", .currentContext))
        #expect(over.style == .currentContext && over.from == "X")
    }

    @Test("a presented navigation controller defining the context hosts a current-context presentation")
    func presentedContainerDefines() throws {
        var scene = try F.plainRoot()
        try scene.present(
            .navigation(
                "nav2", stack: [F.plain("inner")], presentationStyle: .pageSheet, definesPresentationContext: true),
            animated: false)
        let plan = try scene.present(F.plain("P", .currentContext), from: "inner")
        #expect(plan.context == "nav2" && plan.container == Rect(x: 0, y: 57, width: 390, height: 787))
        _ = scene.end(completed: true)
        #expect(scene.visibleLayers.map(\.controller) == ["A", "P"])
        #expect(scene.visibleLayers[1].group == "nav2")
    }
}
