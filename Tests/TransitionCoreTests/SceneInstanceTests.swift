import Testing

@testable import TransitionCore

/// A navigation controller presented again by id must not bring back a child that had been
/// pushed elsewhere meanwhile — the same id twice in the hierarchy, and a
/// way past the scene's controller limit.
@Suite("Scene instances") struct SceneInstanceTests {
    @Test func aStackBroughtBackByIdCannotDuplicateAChildNowElsewhere() throws {
        var scene = try Scene(root: .navigation("root", stack: [SceneController(id: "x")]))
        _ = try scene.present(.controller(.navigation("n", stack: [SceneController(id: "a")])), animated: false)
        _ = try scene.dismiss(animated: false)
        _ = try scene.push(.id("a"), onto: "root", animated: false)
        let before = scene
        #expect(throws: SceneError.alreadyPresented("a", .parent("root"), ios: .newest)) {
            try scene.present(.id("n"), animated: false)
        }
        #expect(scene == before)
    }
}
