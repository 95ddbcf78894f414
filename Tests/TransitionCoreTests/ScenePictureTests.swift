import Testing

@testable import TransitionCore

/// `Scene.stillLayers`: what stands still while a transition plays, between the pictures.
@Suite("Scene picture") struct ScenePictureTests {
    static func sheetScene(device: SceneDevice) throws -> Scene {
        var scene = try Scene(device: device, root: SceneController(id: "home"))
        _ = try scene.present(.controller(SceneController(id: "sheet", presentationStyle: .pageSheet)), animated: false)
        return scene
    }

    @Test func atRestItIsThePictureWithoutTheMovingController() throws {
        let scene = try Self.sheetScene(device: .phone)
        #expect(
            scene.stillLayers(moving: "sheet", progress: 0) == scene.visibleLayers.filter { $0.controller != "sheet" })
        #expect(scene.stillLayers(moving: nil, progress: 0.7) == scene.visibleLayers)  // nothing in flight
    }

    @Test func aPhonePresenterComesForwardAsItsSheetIsDismissed() throws {
        var scene = try Self.sheetScene(device: .phone)
        let pushedBack = try #require(scene.visibleLayers.first { $0.controller == "home" })
        #expect(pushedBack.scale == SceneDevice.phone.pushedBackScale)
        _ = try scene.dismiss(animated: true)
        func home(_ progress: Double) throws -> SceneLayer {
            try #require(scene.stillLayers(moving: "sheet", progress: progress).first { $0.controller == "home" })
        }
        #expect(try home(0) == pushedBack)
        #expect(try home(1).scale == 1 && home(1).frame == SceneDevice.phone.bounds)
        let halfway = try home(0.5)
        #expect(abs(halfway.scale - (pushedBack.scale + 1) / 2) < 1e-12)
        #expect(halfway.frame.minY > 0 && halfway.frame.minY < pushedBack.frame.minY)
        #expect(!scene.stillLayers(moving: "sheet", progress: 0.5).contains { $0.controller == "sheet" })
    }

    @Test func aTabletSheetsDimmingFadesInAsItIsPresented() throws {
        var scene = try Scene(device: .tablet, root: SceneController(id: "home"))
        _ = try scene.present(.controller(SceneController(id: "sheet", presentationStyle: .formSheet)), animated: true)
        func dimming(_ progress: Double) -> SceneLayer? {
            scene.stillLayers(moving: "sheet", progress: progress).first { $0.role == .dimming }
        }
        let full = try #require(scene.pendingLayers?.first { $0.role == .dimming })
        #expect(dimming(0)?.opacity == 0)
        #expect(abs((dimming(0.5)?.opacity ?? 0) - full.opacity / 2) < 1e-12)
        #expect(dimming(1)?.opacity == full.opacity)
    }

    @Test func aFullScreenPresenterComesBackFromBeneathOnDismissal() throws {
        var scene = try Scene(root: SceneController(id: "home"))
        _ = try scene.present(.controller(SceneController(id: "cover")), animated: false)
        #expect(!scene.visibleLayers.contains { $0.controller == "home" })
        _ = try scene.dismiss(animated: true)
        let still = scene.stillLayers(moving: "cover", progress: 0.3)
        #expect(still.first?.controller == "home" && still.first?.opacity == 1)
    }
}

extension ScenePictureTests {
    /// A pop inside a presented navigation controller uncovers its child under its own bar,
    /// above the pushed-back presenter (found by the page: it went to the very bottom).
    @Test func aChildUncoveredByAPopGoesUnderItsOwnBar() throws {
        var scene = try Scene(root: SceneController(id: "home"))
        let nav = SceneController.navigation(
            "nav", stack: [SceneController(id: "first")], presentationStyle: .pageSheet)
        _ = try scene.present(.controller(nav), animated: false)
        _ = try scene.push(SceneController(id: "second"), animated: false)
        _ = try scene.pop(animated: true)
        let still = scene.stillLayers(moving: "second", progress: 0.5)
        let order = still.map { "\($0.controller):\($0.role.rawValue)" }
        #expect(order == ["home:root", "first:child", "nav:navigationBar"])
    }
}

/// The covered side in the picture: which views a frame draws as still (`sceneLayers`).
extension ScenePictureTests {
    /// A sheet or an `over…` presentation keeps its presenter in the window: no covered side,
    /// the presenter stays the interpolated still view (pushed back under a phone sheet).
    @Test(arguments: [PresentationStyle.pageSheet, .formSheet, .overFullScreen, .overCurrentContext])
    func aPresentationThatKeepsThePresenterHasNoCoveredSide(style: PresentationStyle) throws {
        var scene = try Scene(root: SceneController(id: "home"))
        let top = SceneController(id: "top", presentationStyle: style, transitionStyle: .flipHorizontal)
        try scene.present(.controller(top))
        #expect(scene.picture.covered == nil)
        let still = scene.stillLayers(moving: "top", progress: 0.4)
        #expect(scene.picture.sceneLayers(moving: "top", progress: 0.4) == still)
    }

    /// While a full-screen present runs, the presenter's views (its bar and child) are drawn by
    /// the covered side, not as still views; a tablet sheet's dimming view beneath stays.
    @Test func aFrameDrawsTheCoveredViewsOnlyOnce() throws {
        var scene = try Scene(device: .tablet, root: SceneController(id: "home"))
        try scene.present(.controller(SceneController(id: "form", presentationStyle: .formSheet)), animated: false)
        let nav = SceneController.navigation("nav", stack: [SceneController(id: "first")])
        try scene.present(.controller(nav), from: "form")
        let covered = try #require(scene.picture.covered)
        #expect(covered.controller == "form" && covered.views == ["form"])
        for progress in [0, 0.5, 1, -3, .nan, .infinity, 1e308] {
            let still = scene.picture.sceneLayers(moving: "nav", progress: progress)
            #expect(!still.contains { $0.controller == "form" && $0.role != .dimming })
            #expect(still.contains { $0.role == .dimming })
            #expect(still.contains { $0.controller == "home" })
        }
        #expect(
            covered.shade(
                over: LayerState.screen(.from, .presenter, in: covered.container.size, z: 0),
                progress: 0.5) == nil)  // cover vertical: no shade
        // Out-of-range progress is clamped: a push's shade stays between none and UIKit's 0.1.
        let push = try #require(try CoveredSideTests.pushing(.push).picture.covered)
        let child = LayerState.screen(.from, .presenter, in: push.container.size, z: 0)
        for (progress, expected) in [(-3, 0), (Double.nan, 0), (.infinity, 0), (1e308, 0.1), (-.infinity, 0)] {
            #expect(push.shade(over: push.layer(child), progress: progress)?.opacity == expected)
        }
    }
}
