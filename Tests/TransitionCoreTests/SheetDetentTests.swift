import Testing

@testable import TransitionCore

/// A phone sheet's detents in the scene: the card's frame at each, what lies beneath it, its
/// grabber, and which releases have them.
///
/// Sources: Apple, `UISheetPresentationController.Detent.medium()`: "approximately half the
/// height of the screen" (the ratio, 0.56 × `maximumDetentValue`, 0.63 at or below a 568 pt
/// container, is a third-party reading — the Charon reimplementation; top ≈ 388.3 of 844 pt);
/// `.large()`: "a sheet at full height" (the iOS 13 card, 787 pt from y = 57);
/// `customDetentWithIdentifier:resolver:`: the value is "a height within the safe area of the
/// sheet", `maximumDetentValue` = 787 − 34 (the phone's bottom inset) = 753;
/// `largestUndimmedDetentIdentifier`: "the system dims all detents" when nil; the phone's
/// dimming, black at 0.2, is third-party (OpenUIKit's measurement; Charon reads
/// `_alertControllerDimmingViewColor`); iOS 15.0+,
/// `.custom` 16.0+. WWDC 2021 session 10063 "Customize and resize sheets in UIKit" (push-back
/// only at large: inferred from its demos). The grabber's 36 × 5 pt, 5 pt down, is measured
/// from screenshots (inferred).
@Suite("Sheet detents in the scene")
struct SheetDetentTests {
    static func scene(
        _ sheet: SheetDetentConfiguration?, ios: IOSVersion = .ios17, style: PresentationStyle = .pageSheet
    ) throws -> Scene {
        var scene = try Scene(root: SceneController(id: "home"), options: SceneOptions(ios: ios))
        try scene.present(
            .controller(SceneController(id: "card", presentationStyle: style, sheet: sheet)), animated: false)
        return scene
    }

    static func layer(_ scene: Scene, _ controller: String, _ role: SceneLayer.Role) -> SceneLayer? {
        scene.visibleLayers.first { $0.controller == controller && $0.role == role }
    }

    static func close(_ a: Rect?, _ b: Rect) -> Bool {
        guard let a else { return false }
        return [a.minX - b.minX, a.minY - b.minY, a.width - b.width, a.height - b.height].allSatisfy { abs($0) < 1e-9 }
    }

    @Test func mediumIsAboutHalfTheSafeAreaAndLargeTheIOS13Card() throws {
        let medium = try Self.scene(SheetDetentConfiguration(detents: [.medium, .large], selectedDetent: "medium"))
        // 844 − 34 − 0.56 × 753 = 388.32 (exactly half, the old rule, put it at 422).
        #expect(Self.close(medium.frame(of: "card"), Rect(x: 0, y: 388.32, width: 390, height: 455.68)))
        let large = try Self.scene(SheetDetentConfiguration(detents: [.medium, .large], selectedDetent: "large"))
        #expect(large.frame(of: "card") == Rect(x: 0, y: 57, width: 390, height: 787))
    }

    @Test func noSelectionRestsAtTheSmallest() throws {
        let scene = try Self.scene(SheetDetentConfiguration(detents: [.large, .custom(id: "peek", height: 200)]))
        // A 200 pt value within the safe area: 844 − 34 − 200 = 610.
        #expect(scene.frame(of: "card") == Rect(x: 0, y: 610, width: 390, height: 234))
        #expect(scene.sheetDetents?.selected == "peek")
        #expect(scene.sheetDetents?.detents.map(\.id) == ["peek", "large"])
    }

    @Test func aCustomHeightIsAtMostTheLargeOne() {
        #expect(SheetDetent.custom(id: "tall", height: 5000).height(large: 787, container: 844, bottomInset: 34) == 787)
        #expect(SheetDetent.large.height(large: 787, container: 844, bottomInset: 34) == 787)
    }

    @Test func detentValuesLieWithinTheSafeArea() {
        // maximumDetentValue = 787 − 34 = 753; the card's height adds the 34 pt inset back.
        #expect(SceneDevice.phone.safeAreaBottom == 34)
        #expect(SheetDetent.custom(id: "peek", height: 200).height(large: 787, container: 844, bottomInset: 34) == 234)
        #expect(abs(SheetDetent.medium.height(large: 787, container: 844, bottomInset: 34) - (34 + 0.56 * 753)) < 1e-9)
        // At or below a 568 pt container the ratio is 0.63 (third-party, Charon): 568 − 20 − 34 = 514.
        #expect(abs(SheetDetent.medium.height(large: 548, container: 568, bottomInset: 34) - (34 + 0.63 * 514)) < 1e-9)
        #expect(abs(SheetDetent.medium.height(large: 549, container: 569, bottomInset: 34) - (34 + 0.56 * 515)) < 1e-9)
    }

    @Test func thePresenterIsPushedBackOnlyAtLarge() throws {
        let medium = try Self.scene(SheetDetentConfiguration(detents: [.medium, .large]))
        #expect(Self.layer(medium, "home", .root)?.scale == 1)
        let large = try Self.scene(SheetDetentConfiguration(detents: [.medium, .large], selectedDetent: "large"))
        #expect(Self.layer(large, "home", .root)?.scale == 358.0 / 390.0)
    }

    @Test func dimmedAboveTheLargestUndimmedDetentOnly() throws {
        let all = try Self.scene(SheetDetentConfiguration(detents: [.medium, .large]))
        #expect(Self.layer(all, "card", .dimming)?.opacity == 0.2)
        var undimmed = SheetDetentConfiguration(detents: [.medium, .large], largestUndimmedDetent: "medium")
        #expect(Self.layer(try Self.scene(undimmed), "card", .dimming) == nil)
        undimmed.selectedDetent = "large"
        #expect(Self.layer(try Self.scene(undimmed), "card", .dimming) != nil)
    }

    @Test func aPlainSheetIsDrawnAsBefore() throws {
        let plain = try Self.scene(nil)
        #expect(Self.layer(plain, "card", .dimming) == nil)
        #expect(Self.layer(plain, "card", .grabber) == nil)
        #expect(plain.frame(of: "card") == Rect(x: 0, y: 57, width: 390, height: 787))
    }

    @Test func theGrabberSitsOnTheCardsTopEdge() throws {
        let scene = try Self.scene(SheetDetentConfiguration(detents: [.medium, .large], prefersGrabberVisible: true))
        #expect(Self.close(Self.layer(scene, "card", .grabber)?.frame, Rect(x: 177, y: 393.32, width: 36, height: 5)))
        let hidden = try Self.scene(SheetDetentConfiguration(detents: [.medium, .large]))
        #expect(Self.layer(hidden, "card", .grabber) == nil)
    }

    @Test func detentsArriveWithIOS15AndCustomOnesWith16() throws {
        let medium = SheetDetentConfiguration(detents: [.medium, .large])
        let api15 = "UISheetPresentationController (sheet detents)"
        #expect(throws: SceneError.unavailableInIOS(api: api15, since: 15, ios: .ios14)) {
            try Self.scene(medium, ios: .ios14)
        }
        let custom = SheetDetentConfiguration(detents: [.custom(id: "peek", height: 200)])
        let api16 = "UISheetPresentationController.Detent.custom"
        #expect(throws: SceneError.unavailableInIOS(api: api16, since: 16, ios: .ios15)) {
            try Self.scene(custom, ios: .ios15)
        }
        _ = try Self.scene(custom, ios: .ios16)
    }

    @Test func onlySheetsHaveThem() throws {
        let error = try #require(throws: SceneError.self) {
            try Self.scene(SheetDetentConfiguration(), style: .fullScreen)
        }
        #expect(error.code == "invalid-scene")
        #expect(throws: SceneError.self) {
            try Scene(root: SceneController(id: "home", sheet: SheetDetentConfiguration()))
        }
    }

    @Test func selectingADetentMovesTheCardAndAnUnknownOneChangesNothing() throws {
        var scene = try Self.scene(SheetDetentConfiguration(detents: [.medium, .large]))
        try scene.selectDetent("large")
        #expect(scene.frame(of: "card")?.minY == 57)
        let before = scene
        #expect(throws: SceneError.self) { try scene.selectDetent("peek") }
        #expect(scene == before)
    }

    @Test func aLandscapePhoneSheetIgnoresItsDetents() throws {
        // Apple: medium "is inactive in compact height"; the phone's landscape sheet is the window.
        var scene = try Scene(
            root: SceneController(id: "home", supportedOrientations: 26), options: SceneOptions(ios: .ios17))
        _ = try scene.deviceDidChange(to: .landscapeLeft)
        try scene.present(
            .controller(
                SceneController(
                    id: "card", presentationStyle: .pageSheet, supportedOrientations: 26,
                    sheet: SheetDetentConfiguration(detents: [.medium, .large]))), animated: false)
        #expect(scene.sheetDetents == nil)
        #expect(scene.frame(of: "card") == scene.windowBounds)
    }
}
