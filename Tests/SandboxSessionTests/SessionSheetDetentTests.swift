import Testing
import TransitionCore

@testable import SandboxSession

/// A sheet with detents in a session: the pan moves it between them without appearance
/// callbacks, the delegate hears of a change the user made (Apple,
/// `sheetPresentationControllerDidChangeSelectedDetentIdentifier(_:)`: called when the user's
/// interaction changes the selected detent, not for programmatic changes), a first move down at
/// the smallest detent is the swipe-down dismissal, and `prefersScrollingExpandsWhenScrolledToEdge`
/// decides who a vertical scroll view's drag belongs to (Apple: "If true, the sheet expands when
/// the user scrolls to the edge"; here the expansion starts at once — inferred, the scroll offset
/// is not modelled).
@Suite("Sheet detents in a session")
struct SessionSheetDetentTests {
    typealias H = SessionSceneTests.Harness
    static let lifecycle = SessionSceneTests.lifecycle
    static let changed = "card.sheetPresentationControllerDidChangeSelectedDetentIdentifier"

    static func withSheet(_ sheet: String = #"{"detents":["medium","large"]}"#, views: String = "[]") -> H {
        var h = H()
        h.send(#"{"type":"scene","ios":"17","root":{"id":"home"}}"#)
        let card = #"{"id":"card","presentationStyle":"pageSheet","sheet":\#(sheet),"views":\#(views)}"#
        h.send(#"{"type":"present","controller":\#(card),"animated":false}"#)
        return h
    }

    static func detent(_ h: H) -> String? { h.scene?.scene.sheetDetents?.selected }

    @Test func aDragUpFromMediumSettlesAtLargeWithOneDelegateLine() {
        var h = Self.withSheet()
        var actions = h.pan(from: (195, 500), by: (0, -300))
        #expect(h.hub.isAnimating("s"))  // the settle
        actions += h.settle()
        #expect(Self.lifecycle(actions) == [Self.changed])
        #expect(Self.detent(h) == "large")
        #expect(h.scene?.scene.frame(of: "card")?.minY == 57)
        #expect(h.scene?.sheetDrag == nil)
        #expect(!h.frameText.isEmpty)
    }

    @Test func aShortDragGoesBackAndTellsNoOne() {
        var h = Self.withSheet()
        var actions = h.pan(from: (195, 500), by: (0, -60))
        actions += h.settle()
        #expect(Self.lifecycle(actions).isEmpty)
        #expect(Self.detent(h) == "medium")
    }

    @Test func aDragDownFromLargeSettlesAtMedium() {
        var h = Self.withSheet(#"{"detents":["medium","large"],"selectedDetent":"large"}"#)
        var actions = h.pan(from: (195, 300), by: (0, 300))
        actions += h.settle()
        #expect(Self.lifecycle(actions) == [Self.changed])
        #expect(Self.detent(h) == "medium")
        #expect(h.scene?.scene.presentations.count == 1)
    }

    @Test func aFirstMoveDownAtTheSmallestDetentIsTheSwipeDownDismissal() {
        var h = Self.withSheet()
        var actions = h.pan(from: (195, 500), by: (0, 400))
        actions += h.settle()
        let log = Self.lifecycle(actions)
        #expect(log.first == "card.presentationControllerShouldDismiss")
        #expect(log.last == "card.presentationControllerDidDismiss")
        #expect(h.scene?.scene.presentations.isEmpty == true)
    }

    /// One drag from large runs into the dismissal as the card passes below medium: in UIKit the
    /// dismissal is one of the drag's stops (the decompile of iOS 26.1's UIKitCore,
    /// github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore: `_UISheetLayoutInfo
    /// _indexOfCurrentActiveOrDismissDetent`, `__draggingAndDismissing`). The delegate is asked
    /// then (ShouldDismiss, WillDismiss) and told DidDismiss at the end; no detent change.
    @Test func aDragFromLargePastTheSmallestDetentIsTheDismissal() {
        var h = Self.withSheet(#"{"detents":["medium","large"],"selectedDetent":"large"}"#)
        var actions = h.pan(from: (195, 300), by: (0, 600))
        actions += h.settle()
        let log = Self.lifecycle(actions)
        #expect(log.first == "card.presentationControllerShouldDismiss")
        #expect(log.contains("card.presentationControllerWillDismiss"))
        #expect(log.last == "card.presentationControllerDidDismiss")
        #expect(!log.contains(Self.changed))
        #expect(h.scene?.scene.presentations.isEmpty == true && h.scene?.sheetDrag == nil)
    }

    /// The same drag on a sheet modal in presentation: the dismissal resists and the delegate
    /// hears `presentationControllerDidAttemptToDismiss`; the sheet stays, at medium.
    @Test func aModalSheetDraggedFromLargePastTheSmallestDetentAttemptsToDismiss() {
        var h = H()
        h.send(#"{"type":"scene","ios":"17","root":{"id":"home"}}"#)
        let card =
            #"{"id":"card","presentationStyle":"pageSheet","isModalInPresentation":true,"#
            + #""sheet":{"detents":["medium","large"],"selectedDetent":"large"}}"#
        h.send(#"{"type":"present","controller":\#(card),"animated":false}"#)
        var actions = h.pan(from: (195, 300), by: (0, 600))
        actions += h.settle()
        #expect(Self.lifecycle(actions) == ["card.presentationControllerDidAttemptToDismiss"])
        #expect(h.scene?.scene.presentations.count == 1 && Self.detent(h) == "medium")
    }

    @Test func aScrollViewKeepsTheDragWhenScrollingDoesNotExpand() {
        let views = #"[{"id":"list","kind":"vertical-scroll","frame":{"x":0,"y":40,"width":390,"height":380}}]"#
        var h = Self.withSheet(
            #"{"detents":["medium","large"],"prefersScrollingExpandsWhenScrolledToEdge":false}"#, views: views)
        var actions = h.pan(from: (195, 600), by: (0, -300))
        actions += h.settle()
        #expect(Self.detent(h) == "medium")
        #expect(Self.lifecycle(actions).isEmpty)
        // Above the scroll view (the card's top band, 388.3 to 428.3) the drag still moves the sheet.
        actions = h.pan(from: (195, 410), by: (0, -300))
        actions += h.settle()
        #expect(Self.detent(h) == "large")
        // The default (true) expands from the scroll view too.
        var expands = Self.withSheet(#"{"detents":["medium","large"]}"#, views: views)
        _ = expands.pan(from: (195, 600), by: (0, -300))
        _ = expands.settle()
        #expect(Self.detent(expands) == "large")
    }

    @Test func theSceneIsBusyWhileTheCardMovesAndASecondFingerIsHeld() {
        var h = Self.withSheet()
        _ = h.pointer("down", x: 195, y: 500)
        _ = h.pointer("move", x: 195, y: 450)
        let before = h.hub
        let refused = h.send(#"{"type":"dismiss","animated":false}"#)
        #expect(refused.contains { if case .send(_, .error(let e)) = $0 { e.code == "busy" } else { false } })
        #expect(h.hub.core(of: "s")?.scene == before.core(of: "s")?.scene)
        _ = h.pointer("down", x: 100, y: 600, pointer: 1)
        #expect(h.core.heldPointers == [1])
        #expect(h.scene?.sheetDrag?.pointerID == 0)
    }

    @Test func aTurnEndsTheDragAndHoldsTheFinger() {
        var h = Self.withSheet()
        _ = h.pointer("down", x: 195, y: 500)
        _ = h.pointer("move", x: 195, y: 400)
        #expect(h.scene?.sheetDrag != nil)
        _ = h.send(#"{"type":"device","orientation":"landscapeLeft"}"#)
        _ = h.settle()
        #expect(h.scene?.sheetDrag == nil)
        #expect(h.core.heldPointers == [0])
        let actions = h.pointer("up", x: 195, y: 300)
        #expect(!actions.contains { if case .send(_, .error) = $0 { true } else { false } })
        #expect(h.core.heldPointers.isEmpty)
    }

    static func errors(_ actions: [SessionAction]) -> [String] {
        actions.compactMap { if case .send(_, .error(let e)) = $0 { e.code } else { nil } }
    }

    /// Apple: `animateChanges(_:)` animates a change of the sheet's properties, and the delegate's
    /// detent callback is not called for programmatic changes.
    @Test func theAppChangesTheDetentAnimatedOrAtOnceAndTellsNoOne() {
        var h = Self.withSheet()
        var actions = h.send(#"{"type":"sheet","controller":"card","selectedDetent":"large","animated":true}"#)
        #expect(Self.detent(h) == "large")
        #expect(h.hub.isAnimating("s") && h.scene?.isSettlingDetent == true)
        actions += h.settle()
        #expect(Self.lifecycle(actions).isEmpty && Self.errors(actions).isEmpty)
        #expect(h.scene?.sheetDrag == nil)
        actions = h.send(#"{"type":"sheet","controller":"card","selectedDetent":"medium"}"#)
        #expect(Self.detent(h) == "medium" && !h.hub.isAnimating("s"))
        // 844 − 34 − 0.56 × 753 (SheetDetentTests.detentValuesLieWithinTheSafeArea).
        #expect(abs((h.scene?.scene.frame(of: "card")?.minY ?? 0) - 388.32) < 1e-9)
    }

    @Test(arguments: [
        (#"{"type":"sheet","controller":"home","selectedDetent":"large"}"#, "invalid-scene"),
        (#"{"type":"sheet","controller":"card","selectedDetent":"peek"}"#, "invalid-scene"),
        (#"{"type":"sheet","controller":"card"}"#, "missing-field"),
        (#"{"type":"sheet","controller":"card","selectedDetent":"large","animate":true}"#, "unknown-field"),
    ])
    func aBadDetentChangeChangesNothing(_ message: String, _ code: String) {
        var h = Self.withSheet()
        let before = h.hub
        #expect(Self.errors(h.send(message)) == [code])
        #expect(h.hub.core(of: "s")?.scene == before.core(of: "s")?.scene)
    }

    @Test func noDetentChangeWhileTheCardMovesOrWithoutAScene() {
        var h = Self.withSheet()
        _ = h.pointer("down", x: 195, y: 500)
        _ = h.pointer("move", x: 195, y: 450)
        #expect(Self.errors(h.send(#"{"type":"sheet","controller":"card","selectedDetent":"large"}"#)) == ["busy"])
        var bare = H()
        let change = #"{"type":"sheet","controller":"card","selectedDetent":"large"}"#
        #expect(Self.errors(bare.send(change)) == ["no-scene"])
    }

    @Test func scenesStateReportsEachSheetsDetent() throws {
        let h = Self.withSheet()
        let report = try #require(h.scene?.report)
        let text = ServerMessages.encode(.sceneState(report), headroom: 0).text
        let sheets = #""sheets":[{"controller":"card","detent":"medium","top":388.3"#
        #expect(text.contains(sheets) && text.contains(#""bottom":844,"moving":false"#))
    }
}
