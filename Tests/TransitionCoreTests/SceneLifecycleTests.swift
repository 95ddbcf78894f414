import Testing

@testable import TransitionCore

/// The appearance callbacks in UIKit's order, on finish and on an interactive cancel
/// (docs/SCENE.md).
@Suite("Scene lifecycle")
struct SceneLifecycleTests {
    typealias F = SceneFixtures

    @Test("launch: the root loads, will appear and did appear, not animated; a navigation controller before its child")
    func launch() throws {
        let (scene, events) = try Scene.launch(root: .navigation("nav", stack: [F.plain("home")]))
        #expect(
            events == [
                .load("nav"), .load("home"), event("nav", .viewWillAppear, false),
                event("home", .viewWillAppear, false),
                event("nav", .viewDidAppear, false), event("home", .viewDidAppear, false),
            ])
        #expect(scene.loaded == ["nav", "home"])
        #expect(scene.visibleControllers == ["nav", "home"])
    }

    @Test(
        "full-screen present: load, presenter will disappear, presented will appear; finish: complete, did appear, did disappear (modal order)"
    )
    func presentFinish() throws {
        var scene = try F.plainRoot()
        let plan = try scene.present(F.plain("B"))
        #expect(plan.startEvents == [.load("B"), event("A", .viewWillDisappear), event("B", .viewWillAppear)])
        #expect(plan.endEvents == [])
        #expect(scene.inFlight == plan)
        #expect(scene.presentations.isEmpty)
        #expect(
            scene.end(completed: true) == [
                .complete("B", true), event("B", .viewDidAppear), event("A", .viewDidDisappear),
            ])
        #expect(scene.inFlight == nil)
        #expect(scene.state.presentations.map(\.presented) == ["B"])
        #expect(scene.topMost == "B")
        #expect(scene.visibleControllers == ["B"])
    }

    @Test("cancelled present: complete(false), B will/did disappear, A will/did appear, and the scene is as before")
    func presentCancel() throws {
        var scene = try F.plainRoot()
        let before = scene
        try scene.present(F.plain("B"))
        #expect(
            scene.end(completed: false) == [
                .complete("B", false), event("B", .viewWillDisappear), event("B", .viewDidDisappear),
                event("A", .viewWillAppear), event("A", .viewDidAppear),
            ])
        #expect(scene.state == before.state)
        #expect(scene.visibleLayers == before.visibleLayers)
        #expect(scene.loaded == ["A", "B"])  // the view did load and stays loaded
        // Presenting B again by id: the same instance, no second viewDidLoad.
        let again = try scene.present(.id("B"))
        #expect(again.startEvents == [event("A", .viewWillDisappear), event("B", .viewWillAppear)])
    }

    @Test("dismiss: presented will disappear, presenter will appear; finish and cancel")
    func dismiss() throws {
        var scene = try F.plainRoot()
        try scene.present(F.plain("B"))
        _ = scene.end(completed: true)
        let presented = scene

        let plan = try scene.dismiss()
        #expect(plan.action == .dismiss && plan.operation == .dismiss && plan.from == "B" && plan.to == "A")
        #expect(plan.kind == .coverVertical)
        #expect(plan.startEvents == [event("B", .viewWillDisappear), event("A", .viewWillAppear)])
        var cancelled = scene
        #expect(
            scene.end(completed: true) == [
                .complete("B", true), event("A", .viewDidAppear), event("B", .viewDidDisappear),
            ])
        #expect(scene.presentations.isEmpty && scene.topMost == "A")

        #expect(
            cancelled.end(completed: false) == [
                .complete("B", false), event("A", .viewWillDisappear), event("A", .viewDidDisappear),
                event("B", .viewWillAppear), event("B", .viewDidAppear),
            ])
        #expect(cancelled == presented)
    }

    @Test("push: load, old top will disappear, new will appear; finish: complete, did disappear, did appear")
    func push() throws {
        var scene = try F.navigationRoot()
        let plan = try scene.push(F.plain("detail"))
        #expect(plan.kind == .push && plan.operation == .present && plan.from == "home" && plan.to == "detail")
        #expect(plan.container == Rect(x: 0, y: 91, width: 390, height: 753))
        #expect(
            plan.startEvents == [.load("detail"), event("home", .viewWillDisappear), event("detail", .viewWillAppear)])
        #expect(
            scene.end(completed: true) == [
                .complete("detail", true), event("home", .viewDidDisappear), event("detail", .viewDidAppear),
            ])
        #expect(scene.state.navigationStacks == [.init(navigation: "nav", stack: ["home", "detail"])])
        #expect(scene.visibleLayers.last?.title == "Detail")
    }

    @Test("cancelled push: the pushed controller will/did disappear, the old top will/did appear; stack unchanged")
    func pushCancel() throws {
        var scene = try F.navigationRoot()
        let before = scene.state
        try scene.push(F.plain("detail"))
        #expect(
            scene.end(completed: false) == [
                .complete("detail", false), event("detail", .viewWillDisappear), event("detail", .viewDidDisappear),
                event("home", .viewWillAppear), event("home", .viewDidAppear),
            ])
        #expect(scene.state == before)
    }

    @Test("pop from the left edge; an interactive cancel is wangling.me's 'Canceled Interactive Popping' order")
    func popCancel() throws {
        var scene = try F.navigationRoot(stack: ["home", "detail"])
        let before = scene
        let plan = try scene.pop()
        #expect(plan.kind == .push && plan.operation == .dismiss && plan.edgeSwipe)
        #expect(plan.from == "detail" && plan.to == "home")
        // home's view loads now: it was never on screen (the scene started with detail on top).
        #expect(
            plan.startEvents == [.load("home"), event("detail", .viewWillDisappear), event("home", .viewWillAppear)])
        #expect(
            scene.end(completed: false) == [
                .complete("detail", false), event("home", .viewWillDisappear), event("home", .viewDidDisappear),
                event("detail", .viewWillAppear), event("detail", .viewDidAppear),
            ])
        #expect(scene.state == before.state)
        try scene.pop()
        #expect(
            scene.end(completed: true) == [
                .complete("detail", true), event("detail", .viewDidDisappear), event("home", .viewDidAppear),
            ])
        #expect(scene.state.navigationStacks == [.init(navigation: "nav", stack: ["home"])])
    }

    @Test("a pop replays the push's own animator reversed")
    func popUsesPushKind() throws {
        var scene = try F.navigationRoot()
        try scene.push(F.plain("detail"), transition: .reveal)
        _ = scene.end(completed: true)
        #expect(try scene.pop().kind == .reveal)
        _ = scene.end(completed: true)
        try scene.push(.id("detail"))
        _ = scene.end(completed: true)
        #expect(try scene.pop().kind == .push)
    }

    @Test("full screen over a navigation controller: the container's callbacks come before its child's")
    func containerFirst() throws {
        var scene = try F.navigationRoot()
        let plan = try scene.present(F.plain("modal"))
        #expect(plan.from == "nav")
        #expect(
            plan.startEvents == [
                .load("modal"), event("nav", .viewWillDisappear), event("home", .viewWillDisappear),
                event("modal", .viewWillAppear),
            ])
        #expect(
            scene.end(completed: true) == [
                .complete("modal", true), event("modal", .viewDidAppear), event("nav", .viewDidDisappear),
                event("home", .viewDidDisappear),
            ])
    }

    @Test(
        "over… styles and sheets: the presenter gets no disappear or appear callbacks",
        arguments: [
            PresentationStyle.overFullScreen, .overCurrentContext, .pageSheet, .formSheet,
        ])
    func presenterKeepsAppearing(style: PresentationStyle) throws {
        for device in SceneDevice.allCases {
            var scene = try F.plainRoot(device)
            let plan = try scene.present(F.plain("B", style))
            #expect(plan.startEvents == [.load("B"), event("B", .viewWillAppear)])
            #expect(!plan.removesPresenterView)
            #expect(scene.end(completed: true) == [.complete("B", true), event("B", .viewDidAppear)])
            #expect(scene.visibleControllers == ["A", "B"])
            #expect(try scene.dismiss().startEvents == [event("B", .viewWillDisappear)])
            #expect(
                scene.end(completed: false) == [
                    .complete("B", false), event("B", .viewWillAppear), event("B", .viewDidAppear),
                ])
            try scene.dismiss()
            #expect(scene.end(completed: true) == [.complete("B", true), event("B", .viewDidDisappear)])
        }
    }

    @Test("chain dismissal: dismissing from the root removes everything above; the top-most animates")
    func chainDismissal() throws {
        var scene = try F.plainRoot()
        try scene.present(F.plain("B"), animated: false)
        try scene.present(F.plain("C", .pageSheet, transition: .crossDissolve), animated: false)
        #expect(scene.visibleControllers == ["B", "C"])
        let plan = try scene.dismiss("A")
        #expect(plan.from == "C" && plan.to == "A" && plan.kind == .crossDissolve && plan.style == .pageSheet)
        #expect(plan.container == Rect(x: 0, y: 57, width: 390, height: 787))
        #expect(plan.removesPresenterView)  // A's view comes back under the animation
        #expect(
            plan.startEvents == [
                event("C", .viewWillDisappear), event("B", .viewWillDisappear), event("A", .viewWillAppear),
            ])
        #expect(
            scene.end(completed: true) == [
                .complete("C", true), event("A", .viewDidAppear), event("C", .viewDidDisappear),
                event("B", .viewDidDisappear),
            ])
        #expect(scene.presentations.isEmpty)
    }

    @Test("chain dismissal: an intermediate controller hidden under a full-screen one gets no callbacks")
    func chainDismissalHiddenMiddle() throws {
        var scene = try F.plainRoot()
        try scene.present(F.plain("B"), animated: false)
        try scene.present(F.plain("C"), animated: false)
        let plan = try scene.dismiss("B")  // B presents C: dismisses C only
        #expect(plan.from == "C" && plan.to == "B")
        _ = scene.end(completed: false)
        let all = try scene.dismiss("A")
        #expect(all.startEvents == [event("C", .viewWillDisappear), event("A", .viewWillAppear)])
        #expect(
            scene.end(completed: true) == [
                .complete("C", true), event("A", .viewDidAppear), event("C", .viewDidDisappear),
            ])
        #expect(scene.topMost == "A")
    }

    @Test("dismiss on a presented controller that presents nothing dismisses itself; on a presenter, what it presents")
    func dismissTargets() throws {
        var scene = try F.navigationRoot()
        try scene.present(F.plain("B"), animated: false)
        try scene.present(F.plain("C"), animated: false)
        #expect(try scene.dismiss("C").from == "C")
        _ = scene.end(completed: false)
        #expect(try scene.dismiss("home").to == "nav")  // home's container presents B: B and C go
        #expect(scene.end(completed: true).count == 4)
        #expect(scene.presentations.isEmpty)
    }

    @Test("non-animated operations begin and end at once, with animated false")
    func notAnimated() throws {
        var scene = try F.plainRoot()
        let plan = try scene.present(F.plain("B"), animated: false)
        #expect(!plan.animated)
        #expect(
            plan.startEvents == [.load("B"), event("A", .viewWillDisappear, false), event("B", .viewWillAppear, false)])
        #expect(
            plan.endEvents == [
                .complete("B", true, animated: false), event("B", .viewDidAppear, false),
                event("A", .viewDidDisappear, false),
            ])
        #expect(scene.inFlight == nil)
        #expect(scene.topMost == "B")
        #expect(scene.end(completed: true) == [])
    }

    @Test("a controller described in full is a new instance and loads again; by id it is the same one")
    func loadsOncePerInstance() throws {
        var scene = try F.plainRoot()
        try scene.present(F.plain("B"), animated: false)
        try scene.dismiss(animated: false)
        #expect(try scene.present(.id("B"), animated: false).startEvents.first == event("A", .viewWillDisappear, false))
        try scene.dismiss(animated: false)
        #expect(try scene.present(F.plain("B"), animated: false).startEvents.first == .load("B"))
    }
}

// MARK: - Shared helpers of the Scene*Tests
/// Shared helpers of the Scene*Tests.
enum SceneFixtures {
    static func plain(
        _ id: String, _ style: PresentationStyle = .fullScreen, transition: TransitionKind = .coverVertical
    )
        -> SceneController
    {
        SceneController(id: id, title: id.capitalized, presentationStyle: style, transitionStyle: transition)
    }

    /// A plain root "A".
    static func plainRoot(_ device: SceneDevice = .phone) throws -> Scene {
        try Scene(device: device, root: plain("A"))
    }

    /// A navigation root "nav" with [home].
    static func navigationRoot(_ device: SceneDevice = .phone, stack: [String] = ["home"]) throws -> Scene {
        try Scene(device: device, root: .navigation("nav", stack: stack.map { plain($0) }))
    }
}

func event(_ id: String, _ callback: LifecycleCallback, _ animated: Bool = true) -> LifecycleEvent {
    callback == .viewDidLoad ? .load(id) : LifecycleEvent(controller: id, callback: callback, animated: animated)
}

/// Expects `operation` to throw `expected` and to leave the scene `==` to its value before.
func expectRefusal(
    _ scene: Scene, _ expected: SceneError, sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: (inout Scene) throws(SceneError) -> Void
) {
    var copy = scene
    do {
        try operation(&copy)
        Issue.record("expected \(expected.code)", sourceLocation: sourceLocation)
    } catch {
        #expect(error == expected, sourceLocation: sourceLocation)
    }
    #expect(copy == scene, sourceLocation: sourceLocation)
}
