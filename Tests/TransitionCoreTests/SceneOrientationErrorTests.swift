import Testing

@testable import TransitionCore

/// Every orientation error, each leaving the scene `==` to its value before.
@Suite("Scene orientation errors")
struct SceneOrientationErrorTests {
    typealias R = SceneOrientationRotationTests

    @Test("no-common-orientation at launch (UIApplicationInvalidInterfaceOrientationException)")
    func atLaunch() {
        let expected = SceneError.noCommonOrientation(
            controller: "A", supported: .landscape, app: .portrait, window: .portrait)
        #expect(throws: expected) {
            try Scene(root: R.controller("A", .landscape), options: SceneOptions(appOrientations: .portrait))
        }
        #expect(expected.code == "no-common-orientation")
        #expect(expected.description.contains("Supported orientations has no common orientation with the application"))
        #expect(
            throws: SceneError.noCommonOrientation(
                controller: "A", supported: .landscape, app: .allButUpsideDown, window: .portrait)
        ) {
            try Scene(root: R.controller("A", .landscape), options: SceneOptions(windowOrientations: .portrait))
        }
        #expect(
            throws: SceneError.noCommonOrientation(
                controller: "A", supported: [], app: .allButUpsideDown, window: .allButUpsideDown)
        ) {
            try Scene(root: R.controller("A", []))
        }
    }

    @Test("invalid masks, preferred orientations and durations are invalid-scene")
    func invalid() throws {
        #expect(throws: SceneError.self) { try Scene(root: SceneController(id: "A", supportedOrientations: 32)) }
        #expect(throws: SceneError.self) {
            try Scene(root: SceneController(id: "A", preferredOrientationForPresentation: 0))
        }
        #expect(throws: SceneError.self) {
            try Scene(root: R.controller("A"), options: SceneOptions(appOrientations: OrientationMask(rawValue: 1)))
        }
        #expect(throws: SceneError.self) {
            try Scene(root: R.controller("A"), options: SceneOptions(rotationDuration: -1))
        }
        let scene = try Scene(root: R.controller("A"))
        expectRefusal(
            scene, .invalidScene("B's preferredOrientationForPresentation 7 is not an interface orientation (1…4)")
        ) { scene throws(SceneError) in
            try scene.present(SceneController(id: "B", preferredOrientationForPresentation: 7))
        }
        expectRefusal(
            scene,
            .invalidScene(
                "A's supportedOrientations 1 has bits other than portrait 2, portraitUpsideDown 4, landscapeRight 8, landscapeLeft 16"
            )
        ) { scene throws(SceneError) in
            try scene.updateController(
                "A", supportedOrientations: OrientationMask(rawValue: 1), shouldAutorotate: true,
                preferredOrientation: nil)
        }
    }

    @Test("present: no-common-orientation, unsupported-preferred-orientation")
    func present() throws {
        let scene = try Scene(root: R.controller("A"), options: SceneOptions(appOrientations: .allButUpsideDown))
        expectRefusal(
            scene,
            .noCommonOrientation(
                controller: "B", supported: .portraitUpsideDown, app: .allButUpsideDown, window: .allButUpsideDown)
        ) { scene throws(SceneError) in
            try scene.present(R.controller("B", .portraitUpsideDown))
        }
        let unsupported = SceneError.unsupportedPreferredOrientation(
            controller: "B", preferred: .landscapeLeft, allowed: .portrait)
        expectRefusal(scene, unsupported) { scene throws(SceneError) in
            try scene.present(R.controller("B", .portrait, preferred: .landscapeLeft))
        }
        #expect(unsupported.code == "unsupported-preferred-orientation")
        // The preferred orientation must be allowed by the app too.
        expectRefusal(
            scene,
            .unsupportedPreferredOrientation(
                controller: "B", preferred: .portraitUpsideDown, allowed: .allButUpsideDown)
        ) { scene throws(SceneError) in
            try scene.present(R.controller("B", .all, preferred: .portraitUpsideDown))
        }
        // A sheet does not decide: its masks are not read.
        var sheet = scene
        #expect(try sheet.present(R.controller("B", [], style: .formSheet, preferred: .landscapeLeft)).rotation == nil)
    }

    @Test("update: unknown-controller, busy; nothing allowed is accepted until UIKit next asks")
    func update() throws {
        var scene = try Scene(root: R.controller("A"))
        expectRefusal(scene, .unknownController("Z")) { scene throws(SceneError) in
            try scene.updateController(
                "Z", supportedOrientations: nil, shouldAutorotate: true, preferredOrientation: nil)
        }
        // UIKit raises only when it next asks (SceneOrientationVersionTests.noCommonOrientationWhenUIKitAsks).
        var decider = scene
        try decider.updateController(
            "A", supportedOrientations: .portraitUpsideDown, shouldAutorotate: true, preferredOrientation: nil)
        #expect(decider.allowedOrientations == [] && decider.interfaceOrientation == .portrait)
        try scene.present(R.controller("B"))
        expectRefusal(scene, .busy(.present)) { scene throws(SceneError) in
            try scene.updateController(
                "A", supportedOrientations: nil, shouldAutorotate: true, preferredOrientation: nil)
        }
        expectRefusal(scene, .busy(.present)) { scene throws(SceneError) in
            try scene.attemptRotationToDeviceOrientation()
        }
        _ = scene.end(completed: true)
        // A, covered, does not decide: an empty mask is accepted, and refused when A decides again.
        try scene.updateController("A", supportedOrientations: [], shouldAutorotate: true, preferredOrientation: nil)
        #expect(scene.controller("A")?.supportedMask == [])
        expectRefusal(
            scene,
            .noCommonOrientation(controller: "A", supported: [], app: .allButUpsideDown, window: .allButUpsideDown)
        ) { scene throws(SceneError) in
            try scene.dismiss()
        }
    }

    @Test("device turn with nothing allowed: no-common-orientation when the decider autorotates, as an attempt")
    func deviceTurn() throws {
        let options = SceneOptions(appOrientations: .portrait, containerForwardsOrientation: true)
        var scene = try Scene(root: .navigation("nav", stack: [R.controller("home")]), options: options)
        try scene.push(R.controller("video", .landscape), animated: false)
        let expected = SceneError.noCommonOrientation(
            controller: "video", supported: .landscape, app: .portrait, window: .portrait)
        expectRefusal(scene, expected) { scene throws(SceneError) in try scene.deviceDidChange(to: .landscapeLeft) }
        expectRefusal(scene, expected) { scene throws(SceneError) in try scene.attemptRotationToDeviceOrientation() }
        // Face down maps to no interface orientation: nothing is asked, the device is recorded.
        #expect(try scene.deviceDidChange(to: .faceDown) == nil && scene.deviceOrientation == .faceDown)
    }
}
