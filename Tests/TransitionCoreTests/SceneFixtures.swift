import Testing

@testable import TransitionCore

/// Shared helpers of the Scene*Tests.
enum SceneFixtures {
    static func plain(_ id: String, _ style: PresentationStyle = .fullScreen, transition: TransitionKind = .coverVertical)
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
