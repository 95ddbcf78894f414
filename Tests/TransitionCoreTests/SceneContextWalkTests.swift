import Testing

@testable import TransitionCore

/// The current-context walk climbs parents only and stops at the top of that chain (a presented
/// controller or the window's root); it never continues into the presenter. Sources: Apple,
/// `definesPresentationContext` ("UIKit starts at the presenting view controller and walks up
/// the view controller hierarchy") and `UIModalPresentationStyle.overCurrentContext` ("UIKit may
/// walk up the view controller hierarchy to find a view controller that wants to define the
/// presentation context"); suterusu/Experiment_PresentationStyle (geeksrepos.com), whose logs
/// show the walk checks parent–child relations only, not presentations.
@Suite("Scene context walk")
struct SceneContextWalkTests {
    typealias F = SceneFixtures

    @Test("over current context from inside a full-screen modal presents over the modal, not refused")
    func overCurrentContextOverAModal() throws {
        // The navigation root defines a context; the old walk crossed into it (already presenting).
        var scene = try F.navigationRoot()
        try scene.present(F.plain("modal"), animated: false)
        let plan = try scene.present(F.plain("P", .overCurrentContext), from: "modal", animated: false)
        #expect(plan.style == .overCurrentContext && plan.from == "modal" && plan.context == "modal")
        #expect(plan.container == SceneDevice.phone.bounds)
        #expect(scene.presentations.map(\.presenter) == ["nav", "modal"])
        #expect(scene.visibleControllers == ["modal", "P"])
    }

    @Test("over current context from inside a phone page sheet covers the card and keeps its style")
    func overCurrentContextInASheet() throws {
        var scene = try F.navigationRoot()
        try scene.present(F.plain("sheet", .pageSheet), animated: false)
        let card = try #require(scene.frame(of: "sheet"))
        let plan = try scene.present(F.plain("P", .overCurrentContext), from: "sheet", animated: false)
        #expect(plan.style == .overCurrentContext && plan.context == "sheet" && plan.container == card)
        let layer = try #require(scene.visibleLayers.first { $0.controller == "P" })
        #expect(layer.frame == card && layer.group == "sheet")
        #expect(layer.cornerRadius == SceneDevice.sheetCornerRadius)
        // The sheet stays (over…): it gets no callbacks and still shows.
        #expect(scene.visibleControllers == ["nav", "home", "sheet", "P"])
    }

    @Test("a definer inside the presented controller's parent chain is the context")
    func definerInTheChain() throws {
        var scene = try F.plainRoot()
        try scene.present(.navigation("nav2", stack: [F.plain("inner")]), animated: false)
        let plan = try scene.present(F.plain("P", .currentContext), from: "inner", animated: false)
        #expect(plan.context == "nav2" && plan.from == "nav2")
    }

    @Test("no definer and the window's root on top of the chain: full screen from the root's layer")
    func theWindowsRoot() throws {
        var scene = try F.plainRoot()
        let plan = try scene.present(F.plain("P", .overCurrentContext), animated: false)
        #expect(plan.style == .overFullScreen && plan.context == nil && plan.from == "A")
    }

    @Test("the modal as context already presenting is already-presenting, naming the modal")
    func contextAlreadyPresenting() throws {
        var scene = try F.plainRoot()
        try scene.present(F.plain("modal"), animated: false)
        try scene.present(F.plain("P", .overCurrentContext), from: "modal", animated: false)
        expectRefusal(
            scene, .alreadyPresenting(attempted: "Q", on: "modal", source: "modal", presented: "P", ios: .newest)
        ) { scene throws(SceneError) in
            try scene.present(F.plain("Q", .currentContext), from: "modal")
        }
    }
}
