import Testing

@testable import TransitionCore

/// The orientation rules that differ by iOS release, and UIKit's no-common-orientation rule.
/// Sources are cited per test; what is inferred is said so.
@Suite("Scene orientation by version")
struct SceneOrientationVersionTests {
    typealias R = SceneOrientationRotationTests

    static func scene(
        _ ios: IOSVersion, device: SceneDevice = .phone, root: SceneController = R.controller("A"),
        duration: Double? = nil
    ) throws -> Scene {
        try Scene(device: device, root: root, options: SceneOptions(ios: ios, rotationDuration: duration))
    }

    /// UIKit raises UIApplicationInvalidInterfaceOrientationException ("Supported orientations
    /// has no common orientation with the application, and [X shouldAutorotate] is returning
    /// YES" — the exception's own text, seed 001) only when it asks the masks: a device turn,
    /// a full-screen present, an attempt to rotate; and it asks only a decider whose
    /// `shouldAutorotate` is YES (iOS 6 release notes: "the supported orientations are
    /// retrieved only if this view controller returns YES from its shouldAutorotate method").
    /// Returning NO is the standard workaround. Not at an update of the mask.
    @Test func noCommonOrientationWhenUIKitAsks() throws {
        for autorotates in [true, false] {
            var scene = try Self.scene(.ios15, root: R.controller("A", .all))
            // Upside down only, on a phone that never shows it: nothing allowed, accepted.
            try scene.updateController(
                "A", supportedOrientations: .portraitUpsideDown, shouldAutorotate: autorotates,
                preferredOrientation: nil)
            let expected = SceneError.noCommonOrientation(
                controller: "A", supported: .portraitUpsideDown, app: .allButUpsideDown, window: .allButUpsideDown)
            if autorotates {
                expectRefusal(scene, expected) { scene throws(SceneError) in
                    try scene.deviceDidChange(to: .landscapeLeft)
                }
                expectRefusal(scene, expected) { scene throws(SceneError) in
                    try scene.attemptRotationToDeviceOrientation()
                }
                #expect(expected.description.contains("and [A shouldAutorotate] is returning YES"))
            } else {
                #expect(try scene.deviceDidChange(to: .landscapeLeft) == nil)
                #expect(scene.deviceOrientation == .landscapeLeft && scene.interfaceOrientation == .portrait)
                #expect(try scene.attemptRotationToDeviceOrientation() == nil)
            }
        }
        // A full-screen present asks the presented controller, if it autorotates.
        var scene = try Self.scene(.ios15)
        expectRefusal(
            scene,
            .noCommonOrientation(
                controller: "B", supported: .portraitUpsideDown, app: .allButUpsideDown, window: .allButUpsideDown)
        ) { scene throws(SceneError) in
            try scene.present(R.controller("B", .portraitUpsideDown))
        }
        let plan = try scene.present(R.controller("B", .portraitUpsideDown, autorotates: false))
        #expect(plan.rotation == nil && scene.interfaceOrientation == .portrait)
        // At launch: a root that does not autorotate starts in the device's portrait.
        let quiet = try Self.scene(.ios15, root: R.controller("A", .portraitUpsideDown, autorotates: false))
        #expect(quiet.interfaceOrientation == .portrait && quiet.allowedOrientations.isEmpty)
        #expect(throws: SceneError.self) { try Self.scene(.ios15, root: R.controller("A", .portraitUpsideDown)) }
    }

    /// iOS & iPadOS 16 release notes (UIKit, deprecations): "[UIViewController shouldAutorotate]
    /// has been deprecated and is no longer supported … Apps relying on shouldAutorotate should
    /// reflect their preferences using the view controller's supportedInterfaceOrientations".
    /// From 16 it is read as YES: NO neither stops a device turn nor the exception.
    @Test func shouldAutorotateIgnoredFrom16() throws {
        let root = R.controller("A", .allButUpsideDown, autorotates: false)
        var fifteen = try Self.scene(.ios15, root: root)
        #expect(try fifteen.deviceDidChange(to: .landscapeLeft) == nil)
        #expect(fifteen.orientationResolution.shouldAutorotate == false)
        var sixteen = try Self.scene(.ios16, root: root)
        #expect(try sixteen.deviceDidChange(to: .landscapeLeft)?.to == .landscapeRight)
        #expect(sixteen.orientationResolution.shouldAutorotate)
        #expect(throws: SceneError.self) {
            try Self.scene(.ios16, root: R.controller("A", .portraitUpsideDown, autorotates: false))
        }
    }

    /// UIViewController documentation: `willRotate(to:duration:)`, `willAnimateRotation(to:duration:)`
    /// and `didRotate(from:)` are "Deprecated in iOS 8" for `viewWillTransition(to:with:)`;
    /// iOS 7 sends the old sequence (seeds 002, 004). The option still overrides.
    @Test func callbacksByVersion() throws {
        #expect(SceneOptions(ios: .ios7).rotationCallbacks == .legacy)
        #expect(SceneOptions(ios: .ios8).rotationCallbacks == .viewWillTransition)
        #expect(SceneOptions(ios: .ios26).rotationCallbacks == .viewWillTransition)
        let overridden = SceneOptions(ios: .ios7, rotationCallbacks: .viewWillTransition)
        #expect(overridden.rotationCallbacks == .viewWillTransition)
        #expect(SceneOptions(ios: .ios13, rotationCallbacks: .legacy).rotationCallbacks == .legacy)
        var seven = try Self.scene(.ios7)
        let plan = try #require(try seven.deviceDidChange(to: .landscapeLeft))
        #expect(plan.startEvents.first?.callback == .willRotate && plan.endEvents.first?.callback == .didRotate)
    }

    /// `UIApplication.statusBarOrientationAnimationDuration` is documented as the duration of
    /// a 90° turn (twice it for 180°); its value — 0.3 s on iPhone, 0.4 s on iPad — is observed,
    /// not documented (SceneDevice.rotationDuration). Settable within 0…2 s.
    @Test func rotationDurationByIdiom() throws {
        var phone = try Self.scene(.ios26)
        #expect(try phone.deviceDidChange(to: .landscapeLeft)?.duration == 0.3)
        var tablet = try Self.scene(.ios26, device: .tablet)
        #expect(try tablet.deviceDidChange(to: .landscapeLeft)?.duration == 0.4)
        #expect(try tablet.deviceDidChange(to: .landscapeRight)?.duration == 0.8)  // a half turn
        var slow = try Self.scene(.ios26, duration: 1.5)
        #expect(try slow.deviceDidChange(to: .landscapeLeft)?.duration == 1.5)
        var instant = try Self.scene(.ios26, duration: 0)
        let none = try #require(try instant.deviceDidChange(to: .landscapeLeft))
        #expect(none.duration == 0 && instant.interfaceOrientation == .landscapeRight)
        for bad in [-0.1, 2.01, .nan, .infinity, 1e308] {
            #expect(throws: SceneError.self) { try Self.scene(.ios26, duration: bad) }
        }
    }

    /// iOS 16's replacement for `attemptRotationToDeviceOrientation` (Apple:
    /// `setNeedsUpdateOfSupportedInterfaceOrientations()` "notifies the view controller about
    /// a change in supported interface orientations", iOS 16.0+): re-reads the masks and turns.
    /// Before 16 the method does not exist.
    @Test func updateSupportedInterfaceOrientations() throws {
        var fifteen = try Self.scene(.ios15, root: R.controller("A", .portrait))
        expectRefusal(
            fifteen,
            .unavailableInIOS(api: "setNeedsUpdateOfSupportedInterfaceOrientations()", since: 16, ios: .ios15)
        ) { scene throws(SceneError) in try scene.updateSupportedInterfaceOrientations() }
        #expect(SceneError.unavailableInIOS(api: "x", since: 16, ios: .ios15).code == "unavailable-in-ios")
        _ = try fifteen.attemptRotationToDeviceOrientation()  // the old call is there

        var scene = try Self.scene(.ios16, root: R.controller("A", .portrait))
        #expect(try scene.deviceDidChange(to: .landscapeLeft) == nil)
        try scene.updateController(
            "A", supportedOrientations: .landscape, shouldAutorotate: true, preferredOrientation: nil)
        #expect(scene.interfaceOrientation == .portrait)  // nothing turns at the update
        #expect(try scene.updateSupportedInterfaceOrientations()?.to == .landscapeRight)
    }

    /// `UIWindowScene.requestGeometryUpdate(_:errorHandler:)` (iOS 16.0+) with
    /// `.iOS(interfaceOrientations:)`: turns to a requested orientation the controller
    /// supports, whatever the device; none supported calls the error handler with
    /// UISceneErrorDomain code 101, "None of the requested orientations are supported by the
    /// view controller. Requested: …; Supported: …" (the text as developers report it; Apple
    /// does not document it). Which of several is chosen is not documented: the current, else
    /// the device's, else the first in UIKit's order (chosen).
    @Test func requestGeometryUpdate() throws {
        var fifteen = try Self.scene(.ios15)
        expectRefusal(
            fifteen, .unavailableInIOS(api: "requestGeometryUpdate(_:errorHandler:)", since: 16, ios: .ios15)
        ) { scene throws(SceneError) in try scene.requestGeometryUpdate(.landscape) }
        _ = try fifteen.deviceDidChange(to: .portrait)

        var scene = try Self.scene(.ios26)
        let plan = try #require(try scene.requestGeometryUpdate(.landscape))
        #expect(plan.to == .landscapeRight && scene.deviceOrientation == .portrait)
        #expect(plan.startEvents.first?.callback == .viewWillTransition)
        #expect(try scene.requestGeometryUpdate(.landscape) == nil)  // already one of them
        // It holds while allowed: a re-read (as after any transition) does not turn back to the
        // device (inferred: UIKit keeps a requested geometry until the device turns).
        #expect(try scene.attemptRotationToDeviceOrientation() == nil && scene.interfaceOrientation == .landscapeRight)
        #expect(try scene.deviceDidChange(to: .faceUp) == nil && scene.requestedOrientations == .landscape)
        #expect(try scene.deviceDidChange(to: .portrait)?.to == .portrait && scene.requestedOrientations == nil)
        #expect(try scene.requestGeometryUpdate(.landscape)?.to == .landscapeRight)
        #expect(try scene.requestGeometryUpdate(.portrait)?.to == .portrait)

        let portraitOnly = try Self.scene(.ios26, root: R.controller("A", .portrait))
        let refused = SceneError.geometryUpdateRefused(requested: .landscapeLeft, supported: .portrait)
        expectRefusal(portraitOnly, refused) { scene throws(SceneError) in
            try scene.requestGeometryUpdate(.landscapeLeft)
        }
        #expect(
            refused.description.hasSuffix(
                "\"None of the requested orientations are supported by the view controller. Requested: landscapeLeft; Supported: portrait\""
            ))
        expectRefusal(portraitOnly, .invalidScene("interfaceOrientations 0 must be a non-empty orientation mask")) {
            scene throws(SceneError) in try scene.requestGeometryUpdate([])
        }
        var busy = try Self.scene(.ios26)
        try busy.present(R.controller("B"))
        expectRefusal(busy, .busy(.present)) { scene throws(SceneError) in try scene.requestGeometryUpdate(.landscape) }
    }
}
