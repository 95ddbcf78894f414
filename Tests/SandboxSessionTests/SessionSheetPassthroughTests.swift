import Testing
import TransitionCore

@testable import SandboxSession

/// Downs beside a sheet with detents: at or below its largest undimmed detent the presenter
/// beneath takes the touches outside the card (Apple, `largestUndimmedDetentIdentifier`:
/// "Without a dimming view, the undimmed area around the sheet responds to user interaction,
/// allowing for a nonmodal experience" —
/// https://developer.apple.com/documentation/uikit/uisheetpresentationcontroller/largestundimmeddetentidentifier);
/// its navigation stack's edge swipe pops beneath the sheet, which stays. Above that detent the
/// dimming view holds them, and a down on the card is the sheet's as before.
///
/// A tap on the grabber selects the detent before the current one, the largest after the
/// smallest (the decompile of iOS 26.1's UIKitCore, github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore:
/// `-[_UISheetLayoutInfo _grabberAction]`, `_indexOfActiveDetentForTappingGrabber` = (n + current − 1)
/// mod n; its 44 × 44 pt touch area is a third-party reading, the Charon port), with the
/// delegate's `sheetPresentationControllerDidChangeSelectedDetentIdentifier`.
@Suite("Touches beside a sheet and on its grabber")
struct SessionSheetPassthroughTests {
    typealias H = SessionSceneTests.Harness

    /// nav [list, detail] on a phone, detail presenting a page sheet at medium (top 388.32).
    static func withSheet(undimmed: String? = "medium", selected: String = "medium", ios: String = "17") -> H {
        var h = H()
        h.send(
            #"{"type":"scene","ios":"\#(ios)","root":{"id":"nav","kind":"navigation","#
                + #""stack":[{"id":"list"},{"id":"detail"}]}}"#)
        let undimmedField = undimmed.map { #","largestUndimmedDetent":"\#($0)""# } ?? ""
        let sheet = #"{"detents":["medium","large"],"selectedDetent":"\#(selected)"\#(undimmedField)}"#
        let card = #"{"id":"card","presentationStyle":"pageSheet","sheet":\#(sheet)}"#
        h.send(#"{"type":"present","controller":\#(card),"animated":false}"#)
        return h
    }

    static func stack(_ h: H) -> [String]? { h.scene?.scene.controller("nav")?.stack?.map(\.id) }

    @Test func anEdgeSwipeAboveAnUndimmedCardPopsThePresentersStack() {
        var h = Self.withSheet()
        #expect(h.scene?.armed?.plan.action == .dismiss)  // the sheet's gesture, at rest
        var actions = h.pan(from: (5, 200), by: (300, 0))
        actions += h.settle()
        #expect(Self.stack(h) == ["list"])
        #expect(h.scene?.scene.presentations.map(\.presented.id) == ["card"])  // the sheet stays
        #expect(SessionSceneTests.lifecycle(actions).contains("detail.viewWillDisappear(true)"))
        #expect(h.core.heldPointers.isEmpty)
    }

    /// iOS 26: the presenter's content swipe, a rightward pan beside the card, pops too.
    @Test func theContentSwipeBesideAnUndimmedCardPopsOnIOS26() {
        var h = Self.withSheet(ios: "26")
        var actions = h.pan(from: (100, 200), by: (250, 0))
        actions += h.settle()
        #expect(Self.stack(h) == ["list"])
        #expect(h.scene?.scene.presentations.map(\.presented.id) == ["card"])
        #expect(h.core.heldPointers.isEmpty)
    }

    @Test func aDownOnTheCardIsTheSheetsAgainAfterThePresentersWasArmed() {
        var h = Self.withSheet()
        _ = h.pointer("down", x: 5, y: 200)
        _ = h.pointer("up", x: 5, y: 200)
        #expect(h.scene?.armed?.plan.action == .pop)
        var actions = h.pan(from: (195, 500), by: (0, -300))
        actions += h.settle()
        #expect(h.scene?.scene.sheetDetents?.selected == "large")
        #expect(Self.stack(h) == ["list", "detail"])
    }

    /// Dimmed (no undimmed detent, or above it): the down beside the card is held, nothing pops.
    @Test(arguments: [(String?.none, "medium"), ("medium", "large")])
    func aDimmedPresenterTakesNothing(_ undimmed: String?, _ selected: String) {
        var h = Self.withSheet(undimmed: undimmed, selected: selected)
        var actions = h.pointer("down", x: 5, y: 40)
        #expect(h.core.heldPointers == [0])
        for x in stride(from: 35.0, through: 305, by: 30) { actions += h.pointer("move", x: x, y: 40) }
        actions += h.pointer("up", x: 305, y: 40) + h.settle()
        #expect(Self.stack(h) == ["list", "detail"] && SessionSceneTests.lifecycle(actions).isEmpty)
        #expect(h.scene?.armed?.plan.action == .dismiss)
    }

    /// A presenter with no navigation stack has no gesture to take the down: it is held.
    @Test func aPresenterWithoutAStackHoldsTheDown() {
        var h = H()
        h.send(#"{"type":"scene","ios":"17","root":{"id":"home"}}"#)
        let sheet = #"{"detents":["medium","large"],"largestUndimmedDetent":"medium"}"#
        let card = #"{"id":"card","presentationStyle":"pageSheet","sheet":\#(sheet)}"#
        h.send(#"{"type":"present","controller":\#(card),"animated":false}"#)
        _ = h.pointer("down", x: 5, y: 200)
        #expect(h.core.heldPointers == [0] && h.scene?.armed?.plan.action == .dismiss)
    }

    static let changed = "card.sheetPresentationControllerDidChangeSelectedDetentIdentifier"

    /// A page sheet on a bare root with `detents`, its grabber visible.
    static func withGrabber(_ detents: String = #"["medium","large"]"#, selected: String = "medium") -> H {
        var h = H()
        h.send(#"{"type":"scene","ios":"17","root":{"id":"home"}}"#)
        let sheet = #"{"detents":\#(detents),"selectedDetent":"\#(selected)","prefersGrabberVisible":true}"#
        h.send(
            #"{"type":"present","controller":{"id":"card","presentationStyle":"pageSheet","sheet":\#(sheet)},"#
                + #""animated":false}"#)
        return h
    }

    /// Down and up at (x, y), `dx` apart sideways (a horizontal move keeps the drag undecided).
    static func tap(_ h: inout H, x: Double = 195, y: Double, dx: Double = 0) -> [SessionAction] {
        var actions = h.pointer("down", x: x, y: y)
        if dx != 0 { actions += h.pointer("move", x: x + dx, y: y) }
        actions += h.pointer("up", x: x + dx, y: y) + h.settle()
        return actions
    }

    static func grabberMidY(_ h: H) -> Double {
        h.scene?.scene.visibleLayers.first { $0.role == .grabber }.map { $0.frame.midY } ?? -1
    }

    @Test func aGrabberTapCyclesTheDetentsAndTellsTheDelegate() {
        var h = Self.withGrabber()
        #expect(abs(Self.grabberMidY(h) - (388.32 + 7.5)) < 1e-9)
        var actions = Self.tap(&h, y: Self.grabberMidY(h))
        #expect(h.scene?.scene.sheetDetents?.selected == "large")
        #expect(SessionSceneTests.lifecycle(actions) == [Self.changed])
        #expect(h.scene?.sheetDrag == nil && h.core.heldPointers.isEmpty)
        actions = Self.tap(&h, x: 180, y: Self.grabberMidY(h) + 15)  // within the 44 pt area
        #expect(h.scene?.scene.sheetDetents?.selected == "medium")
        #expect(SessionSceneTests.lifecycle(actions) == [Self.changed])
    }

    /// Three detents: the one before the current, the largest after the smallest.
    @Test func aGrabberTapGoesToTheDetentBeforeAndWraps() {
        var h = Self.withGrabber(#"[{"id":"peek","height":200},"medium","large"]"#)
        _ = Self.tap(&h, y: Self.grabberMidY(h))
        #expect(h.scene?.scene.sheetDetents?.selected == "peek")
        _ = Self.tap(&h, y: Self.grabberMidY(h))
        #expect(h.scene?.scene.sheetDetents?.selected == "large")
    }

    /// Not a grabber tap: off its area, a move past the slop, or no grabber drawn.
    @Test(arguments: [(0.0, 200.0, 0.0), (30, 0, 0), (0, 0, 12)])
    func aTapElsewhereChangesNothing(_ dx: Double, _ dy: Double, _ slide: Double) {
        var h = Self.withGrabber()
        let actions = Self.tap(&h, x: 195 + dx, y: Self.grabberMidY(h) + dy, dx: slide)
        #expect(h.scene?.scene.sheetDetents?.selected == "medium" && SessionSceneTests.lifecycle(actions).isEmpty)
    }

    @Test func withoutAGrabberATapOnItsPlaceChangesNothing() {
        var h = H()
        h.send(#"{"type":"scene","ios":"17","root":{"id":"home"}}"#)
        let sheet = #"{"detents":["medium","large"]}"#
        h.send(
            #"{"type":"present","controller":{"id":"card","presentationStyle":"pageSheet","sheet":\#(sheet)},"#
                + #""animated":false}"#)
        let actions = Self.tap(&h, y: 395.8)
        #expect(h.scene?.scene.sheetDetents?.selected == "medium" && SessionSceneTests.lifecycle(actions).isEmpty)
    }
}
