import Testing

@testable import TransitionCore

/// Every refusal names its cause and leaves the scene `==` to its value before.
@Suite("Scene errors")
struct SceneErrorTests {
    typealias F = SceneFixtures

    @Test("already-presenting: UIKit's message, naming both")
    func alreadyPresenting() throws {
        var scene = try F.navigationRoot()
        try scene.present(F.plain("B"), animated: false)
        let error = SceneError.alreadyPresenting(attempted: "C", on: "nav", source: "nav", presented: "B", ios: .newest)
        expectRefusal(scene, error) { scene throws(SceneError) in try scene.present(F.plain("C"), from: "nav") }
        // A child asks: its container presents B.
        let fromChild = SceneError.alreadyPresenting(
            attempted: "C", on: "nav", source: "home", presented: "B", ios: .newest)
        expectRefusal(scene, fromChild) {
            scene throws(SceneError) in
            try scene.present(F.plain("C"), from: "home")
        }
        #expect(error.code == "already-presenting")
        #expect(error.description == "Attempt to present C on nav (from nav) which is already presenting B.")
    }

    @Test("already-presented: a controller in the hierarchy presented (or pushed) again")
    func alreadyPresented() throws {
        var scene = try F.navigationRoot()
        try scene.present(F.plain("B"), animated: false)
        expectRefusal(scene, .alreadyPresented("B", .itself, ios: .newest)) { scene throws(SceneError) in
            try scene.present(.id("B"))
        }
        expectRefusal(scene, .alreadyPresented("home", .parent("nav"), ios: .newest)) { scene throws(SceneError) in
            try scene.present(F.plain("home"))
        }
        expectRefusal(scene, .alreadyPresented("nav", .active, ios: .newest)) { scene throws(SceneError) in
            try scene.present(.navigation("x", stack: [F.plain("nav")]))
        }
        try scene.dismiss(animated: false)
        expectRefusal(scene, .alreadyPresented("home", .pushed, ios: .newest)) { scene throws(SceneError) in
            try scene.push(.id("home"))
        }
        #expect(SceneError.alreadyPresented("B", .active, ios: .newest).code == "already-presented")
    }

    @Test("option: seed 000's exception is not raised for a controller presented again (that is already-presented)")
    func iOS8ExceptionOnlyForItsCase() throws {
        var scene = try Scene(root: F.plain("A"), options: SceneOptions(ios: .ios8, doublePresentation: .exception))
        try scene.present(F.plain("B"), animated: false)
        expectRefusal(scene, .alreadyPresented("B", .itself, ios: .ios8)) { scene throws(SceneError) in
            try scene.present(.id("B"), from: "B")
        }
    }

    @Test("nothing-presented")
    func nothingPresented() throws {
        let scene = try F.navigationRoot()
        expectRefusal(scene, .nothingPresented("nav")) { scene throws(SceneError) in try scene.dismiss() }
        expectRefusal(scene, .nothingPresented("home")) { scene throws(SceneError) in try scene.dismiss("home") }
    }

    @Test("not-in-navigation")
    func notInNavigation() throws {
        var scene = try F.plainRoot()
        expectRefusal(scene, .notInNavigation("A")) { scene throws(SceneError) in try scene.push(F.plain("B")) }
        expectRefusal(scene, .notInNavigation("A")) { scene throws(SceneError) in try scene.pop() }
        try scene.present(F.plain("B", .pageSheet), animated: false)
        expectRefusal(scene, .notInNavigation("B")) { scene throws(SceneError) in try scene.push(F.plain("C")) }
    }

    @Test("cannot-pop-root")
    func cannotPopRoot() throws {
        let scene = try F.navigationRoot()
        expectRefusal(scene, .cannotPopRoot("nav")) { scene throws(SceneError) in try scene.pop() }
        expectRefusal(scene, .cannotPopRoot("nav")) { scene throws(SceneError) in try scene.pop(from: "home") }
    }

    @Test("unknown-controller")
    func unknownController() throws {
        let scene = try F.navigationRoot()
        let ghost = SceneError.unknownController("ghost")
        expectRefusal(scene, ghost) { scene throws(SceneError) in try scene.present(F.plain("B"), from: "ghost") }
        expectRefusal(scene, ghost) { scene throws(SceneError) in try scene.present(.id("ghost")) }
        expectRefusal(scene, ghost) { scene throws(SceneError) in try scene.dismiss("ghost") }
        expectRefusal(scene, ghost) { scene throws(SceneError) in try scene.push(F.plain("B"), onto: "ghost") }
        expectRefusal(scene, ghost) { scene throws(SceneError) in try scene.push(.id("ghost")) }
        expectRefusal(scene, ghost) { scene throws(SceneError) in try scene.pop(from: "ghost") }
    }

    @Test("busy: any operation while a transition is in flight")
    func busy() throws {
        var scene = try F.navigationRoot()
        try scene.push(F.plain("detail"))
        let busy = SceneError.busy(.push)
        expectRefusal(scene, busy) { scene throws(SceneError) in try scene.present(F.plain("B")) }
        expectRefusal(scene, busy) { scene throws(SceneError) in try scene.dismiss() }
        expectRefusal(scene, busy) { scene throws(SceneError) in try scene.push(F.plain("more")) }
        expectRefusal(scene, busy) { scene throws(SceneError) in try scene.pop() }
        expectRefusal(scene, busy) { scene throws(SceneError) in try scene.present(F.plain("B"), animated: false) }
        #expect(busy.description == "a push transition is in flight")
    }

    @Test("invalid-scene: duplicate ids, an empty stack, a navigation controller in a stack or pushed")
    func invalidScene() throws {
        #expect(throws: SceneError.invalidScene("the id \"A\" is used twice")) {
            try Scene(root: .navigation("A", stack: [F.plain("A")]))
        }
        #expect(throws: SceneError.invalidScene("the navigation controller \"nav\" has an empty stack")) {
            try Scene(root: .navigation("nav", stack: []))
        }
        #expect(throws: SceneError.self) {
            try Scene(root: .navigation("nav", stack: [.navigation("inner", stack: [F.plain("x")])]))
        }
        #expect(throws: SceneError.invalidScene("a controller id is empty")) { try Scene(root: F.plain("")) }
        let scene = try F.navigationRoot()
        expectRefusal(scene, .invalidScene("the id \"x\" is used twice")) { scene throws(SceneError) in
            try scene.present(.navigation("x", stack: [F.plain("x")]))
        }
        expectRefusal(
            scene,
            .invalidScene(
                "cannot push the navigation controller \"n2\" (UIKit: pushing a navigation controller is not supported)"
            )
        ) { scene throws(SceneError) in
            try scene.push(.navigation("n2", stack: [F.plain("y")]))
        }
    }

    @Test("not-in-window: presenting from a controller under the top of its stack")
    func notInWindow() throws {
        let scene = try F.navigationRoot(stack: ["home", "detail"])
        let error = SceneError.notInWindow(attempted: "B", on: "nav", source: "home", ios: .newest)
        expectRefusal(scene, error) { scene throws(SceneError) in try scene.present(F.plain("B"), from: "home") }
        #expect(
            error.description == "Attempt to present B on nav (from home) whose view is not in the window hierarchy.")
    }

    @Test("covered: push or pop on a navigation controller hidden by a full-screen or current-context presentation")
    func covered() throws {
        var scene = try F.navigationRoot(stack: ["home", "detail"])
        try scene.present(F.plain("X"), animated: false)
        expectRefusal(scene, .covered(navigation: "nav", by: "X")) { scene throws(SceneError) in
            try scene.push(F.plain("more"), onto: "nav")
        }
        expectRefusal(scene, .covered(navigation: "nav", by: "X")) { scene throws(SceneError) in
            try scene.pop(from: "detail")
        }
        // Under a sheet the stack is still on screen: push works.
        var sheet = try F.navigationRoot()
        try sheet.present(F.plain("S", .pageSheet), animated: false)
        #expect(try sheet.push(F.plain("more"), onto: "nav").startEvents.count == 3)
    }

    @Test("end with nothing in flight: no events, no change")
    func endAtRest() throws {
        var scene = try F.plainRoot()
        let before = scene
        #expect(scene.end(completed: true) == [])
        #expect(scene.end(completed: false) == [])
        #expect(scene == before)
    }
}
