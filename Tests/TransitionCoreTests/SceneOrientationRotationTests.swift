import Testing

@testable import TransitionCore

/// The seeds' scenarios (000, 001, 002, 004): who decides, when the interface turns, the
/// rotation plan, its callbacks and the layout in the rotated window.
@Suite("Scene orientation rotation")
struct SceneOrientationRotationTests {
    typealias F = SceneFixtures
    static let landscape = Size(width: 844, height: 390)

    static func controller(
        _ id: String, _ mask: OrientationMask? = nil, style: PresentationStyle = .fullScreen,
        autorotates: Bool = true, preferred: InterfaceOrientation? = nil
    ) -> SceneController {
        SceneController(
            id: id, presentationStyle: style, supportedOrientations: mask?.rawValue, shouldAutorotate: autorotates,
            preferredOrientationForPresentation: preferred?.uikitValue)
    }

    static func transition(_ id: String, _ size: Size) -> LifecycleEvent {
        LifecycleEvent(controller: id, callback: .viewWillTransition, animated: true, size: size)
    }

    static func layout(_ id: String) -> LifecycleEvent {
        LifecycleEvent(controller: id, callback: .viewWillLayoutSubviews, animated: true)
    }

    static func rotation(_ id: String, _ callback: LifecycleCallback, _ orientation: InterfaceOrientation)
        -> LifecycleEvent
    {
        LifecycleEvent(controller: id, callback: callback, animated: true, orientation: orientation)
    }

    @Test("a portrait-only root on a turned device stays portrait (REFERENCE §4)")
    func portraitOnlyStays() throws {
        var scene = try Scene(root: Self.controller("A", .portrait))
        let before = scene.visibleLayers
        for device in DeviceOrientation.allCases {
            #expect(try scene.deviceDidChange(to: device) == nil)
            #expect(scene.deviceOrientation == device && scene.interfaceOrientation == .portrait)
        }
        #expect(scene.visibleLayers == before && scene.windowBounds == SceneDevice.phone.bounds)
    }

    @Test("an allowed turn rotates: device landscape left → interface landscape right, and back")
    func allowedTurn() throws {
        var scene = try Scene(root: Self.controller("A"))  // phone default: all but upside down
        let plan = try #require(try scene.deviceDidChange(to: .landscapeLeft))
        #expect(plan.from == .portrait && plan.to == .landscapeRight)
        #expect(plan.fromTransform == .identity && plan.toTransform.components == [0, 1, -1, 0, 0, 0])
        #expect(plan.turn == Double.pi / 2 && plan.duration == 0.3 && plan.curve == .easeInEaseOut && plan.animated)
        #expect(
            plan.boundsBefore == SceneDevice.phone.bounds
                && plan.boundsAfter == Rect(origin: .zero, size: Self.landscape))
        #expect(plan.startEvents == [Self.transition("A", Self.landscape), Self.layout("A")])
        #expect(plan.endEvents.isEmpty)
        #expect(scene.interfaceOrientation == .landscapeRight)
        #expect(
            scene.visibleLayers == [
                SceneLayer(controller: "A", role: .root, frame: Rect(origin: .zero, size: Self.landscape), group: "A")
            ])
        // The device turned the other way: the seed's matrix.
        let other = try #require(try scene.deviceDidChange(to: .landscapeRight))
        #expect(other.to == .landscapeLeft && other.toTransform.components == [0, -1, 1, 0, 0, 0])
        #expect(other.turn == Double.pi && other.duration == 0.6)  // a phone: 0.3 s a quarter turn
        #expect(other.boundsBefore == other.boundsAfter)
        // Face up keeps the interface; upside down is not allowed on a phone by default.
        #expect(try scene.deviceDidChange(to: .faceUp) == nil)
        #expect(try scene.deviceDidChange(to: .portraitUpsideDown) == nil)
        #expect(scene.interfaceOrientation == .landscapeLeft)
        let back = try #require(try scene.deviceDidChange(to: .portrait))
        #expect(back.to == .portrait && back.boundsAfter == SceneDevice.phone.bounds)
        #expect(back.startEvents == [Self.transition("A", SceneDevice.phone.size), Self.layout("A")])
    }

    @Test("a tablet allows upside down; a half turn takes 0.8 s")
    func tabletUpsideDown() throws {
        var scene = try Scene(device: .tablet, root: Self.controller("A"))
        let plan = try #require(try scene.deviceDidChange(to: .portraitUpsideDown))
        #expect(
            plan.to == .portraitUpsideDown && plan.toTransform.components == [-1, 0, 0, -1, 0, 0]
                && plan.duration == 0.8)
        #expect(scene.windowBounds == SceneDevice.tablet.bounds)
    }

    @Test("a changed mask waits for the next device turn, or attemptRotationToDeviceOrientation (seed 000)")
    func attemptRotation() throws {
        var scene = try Scene(root: Self.controller("A", .portrait))
        #expect(try scene.deviceDidChange(to: .landscapeLeft) == nil)
        try scene.updateController(
            "A", supportedOrientations: .landscape, shouldAutorotate: true, preferredOrientation: nil)
        #expect(scene.interfaceOrientation == .portrait && scene.allowedOrientations == .landscape)
        var waiting = scene
        let plan = try #require(try scene.attemptRotationToDeviceOrientation())
        #expect(
            plan.from == .portrait && plan.to == .landscapeRight
                && plan.startEvents.first == Self.transition("A", Self.landscape))
        #expect(try scene.attemptRotationToDeviceOrientation() == nil)  // already there
        // Without the attempt, the next device change catches up.
        #expect(try waiting.deviceDidChange(to: .landscapeRight)?.to == .landscapeLeft)
    }

    @Test("the current orientation is kept while allowed; a disallowed one settles at the next turn")
    func keepWhileAllowed() throws {
        var scene = try Scene(root: Self.controller("A"))
        try scene.deviceDidChange(to: .landscapeLeft)
        try scene.updateController("A", supportedOrientations: .all, shouldAutorotate: true, preferredOrientation: nil)
        #expect(try scene.attemptRotationToDeviceOrientation() == nil)
        // Now portrait only while in landscape, device face up: the next mapped turn that is not
        // allowed still settles on portrait (the device's orientation is not allowed either).
        try scene.updateController(
            "A", supportedOrientations: .portrait, shouldAutorotate: true, preferredOrientation: nil)
        #expect(scene.interfaceOrientation == .landscapeRight)
        #expect(try scene.deviceDidChange(to: .faceUp) == nil)
        #expect(try scene.deviceDidChange(to: .landscapeRight)?.to == .portrait)
    }

    @Test("shouldAutorotate false (before iOS 16): no autorotation, no attempt; a presentation still turns")
    func shouldAutorotateFalse() throws {
        var scene = try Scene(root: Self.controller("A", autorotates: false), options: SceneOptions(ios: .ios15))
        #expect(try scene.deviceDidChange(to: .landscapeLeft) == nil)
        #expect(try scene.attemptRotationToDeviceOrientation() == nil)
        #expect(scene.interfaceOrientation == .portrait && scene.deviceOrientation == .landscapeLeft)
        let plan = try scene.present(Self.controller("B", .landscape, preferred: .landscapeLeft), animated: false)
        #expect(plan.rotation?.to == .landscapeLeft)
        #expect(scene.interfaceOrientation == .landscapeLeft)
    }

    @Test("a full-screen present with a preferred landscape orientation rotates; dismiss rotates back (seed 001)")
    func presentAndDismiss() throws {
        var scene = try Scene(root: Self.controller("A", .portrait))
        let plan = try scene.present(Self.controller("B", .landscape, preferred: .landscapeRight))
        let rotation = try #require(plan.rotation)
        #expect(rotation.from == .portrait && rotation.to == .landscapeRight && rotation.startEvents.isEmpty)
        #expect(rotation.boundsAfter.size == Self.landscape && plan.container.size == Self.landscape)
        #expect(plan.startEvents == [.load("B"), event("A", .viewWillDisappear), event("B", .viewWillAppear)])
        #expect(scene.interfaceOrientation == .portrait)  // committed with the transition
        _ = scene.end(completed: true)
        #expect(scene.interfaceOrientation == .landscapeRight)
        #expect(scene.orientationResolution.decider == "B" && scene.allowedOrientations == .landscape)
        #expect(
            scene.visibleLayers == [
                SceneLayer(
                    controller: "B", role: .presented, frame: Rect(origin: .zero, size: Self.landscape), group: "B")
            ])

        let back = try scene.dismiss()
        #expect(back.rotation?.from == .landscapeRight && back.rotation?.to == .portrait)
        #expect(back.container.size == Self.landscape)  // the dismissed view leaves in its own orientation
        _ = scene.end(completed: true)
        #expect(scene.interfaceOrientation == .portrait && scene.visibleLayers.first?.frame == SceneDevice.phone.bounds)
    }

    @Test("a cancelled interactive present keeps the orientation")
    func cancelledPresent() throws {
        var scene = try Scene(root: Self.controller("A", .portrait))
        try scene.present(Self.controller("B", .landscape))
        _ = scene.end(completed: false)
        #expect(scene.interfaceOrientation == .portrait)
    }

    @Test("without a preferred orientation a present keeps the current one if allowed, else the device's")
    func presentWithoutPreference() throws {
        var scene = try Scene(root: Self.controller("A"))
        try scene.deviceDidChange(to: .landscapeLeft)
        #expect(try scene.present(Self.controller("B", .all), animated: false).rotation == nil)
        try scene.dismiss(animated: false)
        let plan = try scene.present(Self.controller("C", .portrait), animated: false)
        #expect(plan.rotation?.to == .portrait)
        try scene.dismiss(animated: false)
        // Back to A, which allows the device's landscape: the current portrait is kept.
        #expect(scene.interfaceOrientation == .portrait)
    }

    @Test("sheets and context presentations do not decide; over full screen does")
    func whoDecides() throws {
        var scene = try Scene(root: Self.controller("A", .portrait))
        let sheet = try scene.present(
            Self.controller("B", .landscape, style: .pageSheet, preferred: .landscapeLeft), animated: false)
        #expect(sheet.rotation == nil && scene.orientationResolution.decider == "A")
        try scene.dismiss(animated: false)
        let over = try scene.present(Self.controller("C", .landscape, style: .overFullScreen), animated: false)
        #expect(over.rotation?.to == .landscapeRight && scene.orientationResolution.fullScreenController == "C")
        // The presenter stays beneath an over-full-screen presentation and is laid out in landscape.
        #expect(scene.visibleLayers.map(\.frame.size) == [Self.landscape, Self.landscape])
    }

    @Test("a navigation container decides for its children unless it forwards to its top child (seed 000)")
    func containerForwarding() throws {
        let root = SceneController.navigation("nav", stack: [Self.controller("home", .portrait)])
        var deciding = try Scene(root: root)
        #expect(deciding.orientationResolution.decider == "nav")
        #expect(try deciding.deviceDidChange(to: .landscapeLeft)?.to == .landscapeRight)

        var forwarding = try Scene(root: root, options: SceneOptions(containerForwardsOrientation: true))
        #expect(
            forwarding.orientationResolution.decider == "home"
                && forwarding.orientationResolution.fullScreenController == "nav")
        #expect(try forwarding.deviceDidChange(to: .landscapeLeft) == nil)
        try forwarding.push(Self.controller("video", .all), animated: false)
        #expect(forwarding.interfaceOrientation == .portrait)  // a push does not rotate (seed 001)
        #expect(try forwarding.attemptRotationToDeviceOrientation()?.to == .landscapeRight)
        try forwarding.pop(animated: false)
        // Popping back keeps landscape until the next turn (seed 000: "back to sub view, it is landscape").
        #expect(forwarding.interfaceOrientation == .landscapeRight)
        #expect(try forwarding.deviceDidChange(to: .landscapeRight)?.to == .portrait)
    }

    @Test("layout in landscape: a phone's bar is 32 pt with no status bar; a tablet keeps both")
    func landscapeLayout() throws {
        var phone = try F.navigationRoot()
        try phone.deviceDidChange(to: .landscapeRight)
        #expect(
            phone.visibleLayers.map(\.frame) == [
                Rect(x: 0, y: 32, width: 844, height: 358), Rect(x: 0, y: 0, width: 844, height: 32),
            ])
        var tablet = try F.navigationRoot(.tablet)
        try tablet.deviceDidChange(to: .landscapeLeft)
        #expect(
            tablet.visibleLayers.map(\.frame) == [
                Rect(x: 0, y: 68, width: 1180, height: 752), Rect(x: 0, y: 0, width: 1180, height: 68),
            ])
        // viewWillTransition carries each controller's new size.
        var scene = try F.navigationRoot()
        let plan = try #require(try scene.deviceDidChange(to: .landscapeLeft))
        #expect(
            plan.startEvents.prefix(2) == [
                Self.transition("nav", Self.landscape), Self.transition("home", Size(width: 844, height: 358)),
            ])
    }

    /// Apple, `UISheetPresentationController.prefersEdgeAttachedInCompactHeight`: a phone's sheet
    /// "defaults to a full screen appearance at compact height" (SceneLandscapeSheetTests).
    @Test("a phone sheet turned to landscape fills the rotated bounds; the presenter is not pushed back")
    func landscapeSheet() throws {
        var scene = try F.plainRoot()
        try scene.present(F.plain("B", .pageSheet), animated: false)
        let plan = try #require(try scene.deviceDidChange(to: .landscapeLeft))
        #expect(
            plan.startEvents == [
                Self.transition("A", Self.landscape), Self.transition("B", Self.landscape),
                Self.layout("A"), Self.layout("B"),
            ])
        #expect(scene.presentations[0].frame == Rect(x: 0, y: 0, width: 844, height: 390))
        #expect(scene.presentations[0].style == .pageSheet)
        let presenter = scene.visibleLayers[0]
        #expect(presenter.controller == "A" && presenter.scale == 1 && presenter.frame.width == 844)
    }

    @Test("a controller hidden behind a full-screen presentation gets no rotation callbacks, and reappears laid out")
    func hiddenGetsNothing() throws {
        var scene = try Scene(root: Self.controller("A"))
        try scene.present(Self.controller("B"), animated: false)
        let plan = try #require(try scene.deviceDidChange(to: .landscapeLeft))
        #expect(plan.startEvents == [Self.transition("B", Self.landscape), Self.layout("B")])
        let dismiss = try scene.dismiss(animated: false)
        #expect(dismiss.rotation == nil)
        #expect(
            scene.visibleLayers == [
                SceneLayer(controller: "A", role: .root, frame: Rect(origin: .zero, size: Self.landscape), group: "A")
            ])
    }

    @Test("the iOS ≤ 7 sequence: willRotate, bounds (viewWillLayoutSubviews), willAnimateRotation | didRotate")
    func legacyCallbacks() throws {
        let options = SceneOptions(rotationCallbacks: .legacy)
        var scene = try Scene(root: .navigation("nav", stack: [F.plain("home")]), options: options)
        let plan = try #require(try scene.deviceDidChange(to: .landscapeLeft))
        #expect(
            plan.startEvents == [
                Self.rotation("nav", .willRotate, .landscapeRight), Self.rotation("home", .willRotate, .landscapeRight),
                Self.layout("nav"), Self.layout("home"),
                Self.rotation("nav", .willAnimateRotation, .landscapeRight),
                Self.rotation("home", .willAnimateRotation, .landscapeRight),
            ])
        #expect(
            plan.endEvents == [
                Self.rotation("nav", .didRotate, .portrait), Self.rotation("home", .didRotate, .portrait),
            ])
        #expect(plan.endEvents.map(\.description) == ["nav.didRotate(portrait)", "home.didRotate(portrait)"])
        #expect(Self.transition("A", Self.landscape).description == "A.viewWillTransition(844.0×390.0)")
    }

    @Test("the app's and the window's masks; a landscape-only app launches in landscape right")
    func appAndWindow() throws {
        let scene = try Scene(root: Self.controller("A"), options: SceneOptions(appOrientations: .landscape))
        #expect(scene.interfaceOrientation == .landscapeRight && scene.windowBounds.size == Self.landscape)
        #expect(scene.deviceOrientation == .portrait)
        var window = try Scene(root: Self.controller("A", .all), options: SceneOptions(windowOrientations: .portrait))
        let resolution = window.orientationResolution
        #expect(resolution.allowed == .portrait && resolution.excluding(.landscapeLeft) == [.window])
        // The window replaces the app's.
        #expect(resolution.sources.map(\.source) == [.hardware, .window, .controller("A")])
        #expect(try window.deviceDidChange(to: .landscapeLeft) == nil)
        let state = window.state.orientation
        #expect(state.deviceOrientation == .landscapeLeft && state.interfaceOrientation == .portrait)
        #expect(state.allowed == .portrait && state.windowBounds == SceneDevice.phone.bounds)
    }

    @Test("a device turn during a transition is recorded; the interface catches up on attempt")
    func turnDuringTransition() throws {
        var scene = try Scene(root: Self.controller("A"))
        try scene.present(Self.controller("B"))
        #expect(try scene.deviceDidChange(to: .landscapeLeft) == nil)
        #expect(scene.deviceOrientation == .landscapeLeft && scene.interfaceOrientation == .portrait)
        _ = scene.end(completed: true)
        #expect(try scene.attemptRotationToDeviceOrientation()?.to == .landscapeRight)
    }
}
