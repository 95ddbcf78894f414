import Testing

@testable import TransitionCore

/// A phone's sheet at compact height (landscape). Apple,
/// `UISheetPresentationController.prefersEdgeAttachedInCompactHeight`: the sheet "defaults to a
/// full screen appearance at compact height". An appearance: the presentation stays a sheet —
/// its presenter stays in the window (no disappear callbacks), is not pushed back, does not
/// hand the orientation to the sheet, and the swipe-down stays. Inferred, and chosen: the sheet
/// fills the window without rounded corners.
@Suite("A phone sheet in landscape")
struct SceneLandscapeSheetTests {
    typealias R = SceneOrientationRotationTests
    static let landscapeBounds = Rect(origin: .zero, size: R.landscape)

    static func landscapeScene() throws -> Scene {
        var scene = try Scene(root: R.controller("home"))  // phone default: all but upside down
        _ = try scene.deviceDidChange(to: .landscapeLeft)
        #expect(scene.interfaceOrientation == .landscapeRight)
        return scene
    }

    @Test("presented in landscape: a sheet at the window's bounds, the presenter kept as it was")
    func presentedInLandscape() throws {
        var scene = try Self.landscapeScene()
        let plan = try scene.present(R.controller("sheet", style: .pageSheet), animated: false)
        #expect(plan.style == .pageSheet && plan.container == Self.landscapeBounds)
        #expect(!plan.removesPresenterView)
        #expect(!plan.endEvents.contains { $0.controller == "home" })
        #expect(scene.presentations.map(\.style) == [.pageSheet])
        #expect(scene.dismissGesture == .dismisses("sheet"))
        #expect(scene.orientationResolution.decider == "home")
        let home = try #require(scene.visibleLayers.first { $0.controller == "home" })
        #expect(home.scale == 1 && home.frame == Self.landscapeBounds)
        let sheet = try #require(scene.visibleLayers.first { $0.controller == "sheet" })
        #expect(sheet.frame == Self.landscapeBounds && sheet.cornerRadius == 0)
    }

    @Test("turned back to portrait: the card again, the presenter pushed back")
    func turnedBack() throws {
        var scene = try Self.landscapeScene()
        try scene.present(R.controller("sheet", style: .pageSheet), animated: false)
        _ = try scene.deviceDidChange(to: .portrait)
        #expect(scene.interfaceOrientation == .portrait)
        #expect(scene.presentations[0].frame == SceneDevice.phone.frame(for: .pageSheet))
        let home = try #require(scene.visibleLayers.first { $0.controller == "home" })
        #expect(home.scale < 1)
    }

    @Test("before iOS 13 a phone's sheet is full screen, in either orientation")
    func beforeIOS13() throws {
        var scene = try Scene(root: R.controller("home"), options: SceneOptions(ios: .ios12))
        _ = try scene.deviceDidChange(to: .landscapeLeft)
        let plan = try scene.present(R.controller("sheet", style: .pageSheet), animated: false)
        #expect(plan.style == .fullScreen && plan.removesPresenterView)
    }
}
