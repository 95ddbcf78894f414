import Testing

@testable import TransitionCore

/// The presentation rules that differ by iOS release (docs/SCENE.md, "The iOS version").
@Suite("Scene presentation by version")
struct ScenePresentationVersionTests {
    typealias F = SceneFixtures

    static func scene(_ ios: IOSVersion, device: SceneDevice = .phone, double: Bool = false) throws -> Scene {
        try Scene(
            device: device, root: F.plain("A"),
            options: SceneOptions(ios: ios, doublePresentation: double ? .exception : .refuse))
    }

    @Test("automatic: a page sheet from iOS 13, full screen before")
    func automatic() throws {
        // Apple, UIModalPresentationStyle.automatic: "For most view controllers, UIKit maps this
        // style to the UIModalPresentationStyle.pageSheet style"; WWDC 2019 session 224: iOS 13
        // makes the card the default; before it the default modalPresentationStyle was fullScreen.
        for ios in IOSVersion.allCases {
            var scene = try Self.scene(ios)
            let plan = try scene.present(F.plain("B", .automatic), animated: false)
            #expect(plan.style == (ios.atLeast(13) ? .pageSheet : .fullScreen))
        }
    }

    @Test("phone sheets are full screen before iOS 13; a tablet keeps its sheets")
    func phoneSheetsAdapt() throws {
        // Apple, "Presenting a view controller" (adaptivity): in a horizontally compact environment
        // (an iPhone before iOS 13's cards) page and form sheets adapt to full screen. iOS 13+
        // cards stay sheets in landscape (Apple, `prefersEdgeAttachedInCompactHeight`: "defaults to
        // a full screen appearance at compact height"; SceneLandscapeSheetTests).
        let phone = SceneDevice.phone
        #expect(PresentationStyle.pageSheet.resolved(ios: .ios12, device: phone) == .fullScreen)
        #expect(PresentationStyle.formSheet.resolved(ios: .ios13, device: phone) == .formSheet)
        #expect(PresentationStyle.automatic.resolved(ios: .ios26, device: phone) == .pageSheet)
        let tablet = SceneDevice.tablet
        #expect(PresentationStyle.formSheet.resolved(ios: .ios12, device: tablet) == .formSheet)
        #expect(PresentationStyle.overCurrentContext.resolved(ios: .ios8, device: .phone) == .overCurrentContext)
    }

    @Test("partial curl to or from a controller that is not full screen: UIKit's NSInvalidArgumentException")
    func partialCurl() throws {
        // UIKit's exception text, quoted in Apple's developer forums and Stack Overflow
        // ("Application tried to present UIModalTransitionStylePartialCurl to or from
        // non-fullscreen view controller"); Apple's overCurrentContext page: "other transition
        // styles (except the partial curl transition)".
        var scene = try Self.scene(.ios26)
        let reason =
            "Application tried to present UIModalTransitionStylePartialCurl to or from non-fullscreen view controller"
        expectRefusal(scene, .uncaughtException(name: "NSInvalidArgumentException", reason: "\(reason) B.")) {
            scene throws(SceneError) in
            try scene.present(F.plain("B", .pageSheet, transition: .partialCurl))
        }
        // From a sheet, the presenter is not full screen.
        try scene.present(F.plain("S", .pageSheet), animated: false)
        expectRefusal(scene, .uncaughtException(name: "NSInvalidArgumentException", reason: "\(reason) S.")) {
            scene throws(SceneError) in
            try scene.present(F.plain("C", .fullScreen, transition: .partialCurl))
        }
        try scene.dismiss(animated: false)
        let plan = try scene.present(F.plain("B", .fullScreen, transition: .partialCurl), animated: false)
        #expect(plan.kind == .partialCurl)
        #expect(try scene.dismiss(animated: false).kind == .partialCurl)
    }

    @Test("a controller presented with a partial curl cannot present: curl-cannot-present")
    func curledControllerCannotPresent() throws {
        // Apple, `UIModalTransitionStyle.partialCurl`: the presented view controller "is itself
        // prevented from presenting any additional view controllers". UIKit's reaction (a warning
        // or an exception) is not known: the code and text are the sandbox's.
        var scene = try Self.scene(.ios26)
        try scene.present(F.plain("B", .fullScreen, transition: .partialCurl), animated: false)
        let refused = SceneError.curledPresenter(attempted: "C", presenter: "B")
        expectRefusal(scene, refused) { scene throws(SceneError) in try scene.present(F.plain("C", .overFullScreen)) }
        expectRefusal(scene, refused) { scene throws(SceneError) in
            try scene.present(F.plain("C", .fullScreen, transition: .crossDissolve), from: "B")
        }
        #expect(refused.code == "curl-cannot-present")
        #expect(refused.description.hasPrefix("B was presented with a partial curl and cannot present C"))
        // The root below it still may, once the curl is dismissed.
        try scene.dismiss(animated: false)
        #expect(try scene.present(F.plain("C", .fullScreen), animated: false).to == "C")
    }

    @Test("seed 000: the same presenter presenting while its first present turns the interface crashes on iOS 8 only")
    func seed000() throws {
        // Seed 000: "只有iOS8的设备报了异常" (only iOS 8 devices raised it); the cause, "self or its
        // parents were presented several times" (a segue and a code present); "iOS8以上的系统兼容了
        // 这个错误" (later releases tolerate it).
        let crash = SceneError.uncaughtException(
            name: "NSInvalidArgumentException",
            reason: "*** -[__NSPlaceholderArray initWithObjects:count:]: attempt to insert nil object from objects[0]")
        var player = F.plain("player")
        player.supportedOrientations = OrientationMask.landscape.rawValue
        player.preferredOrientationForPresentation = InterfaceOrientation.landscapeRight.uikitValue
        for ios in [IOSVersion.ios8, .ios9, .ios26] {
            var root = F.plain("A")
            root.supportedOrientations = OrientationMask.portrait.rawValue
            var scene = try Scene(root: root, options: SceneOptions(ios: ios, doublePresentation: .exception))
            let plan = try scene.present(player)
            #expect(plan.rotation != nil)
            let busy = SceneError.presentingWhileBusy(
                attempted: "again", on: "A", source: "A", inFlight: .present, ios: ios)
            expectRefusal(scene, ios == .ios8 ? crash : busy) { scene throws(SceneError) in
                try scene.present(F.plain("again"), from: "A")
            }
        }
        // No rotation in flight: busy, even on iOS 8.
        var scene = try Self.scene(.ios8, double: true)
        try scene.present(F.plain("B"))
        let busy = SceneError.presentingWhileBusy(attempted: "C", on: "A", source: "A", inFlight: .present, ios: .ios8)
        expectRefusal(scene, busy) { scene throws(SceneError) in try scene.present(F.plain("C"), from: "A") }
    }
}
