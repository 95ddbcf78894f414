import Testing
import TransitionCore

@testable import SandboxSession

/// iOS 26's content swipe in a session: where it may begin (SceneContentPopTests), how it
/// decides (ContentSwipeHysteresisTests), and what takes the pan when it fails. Sources: Apple,
/// `interactiveContentPopGestureRecognizer` (iOS 26.0+: "when a person initially pans
/// horizontally in a leading to trailing direction in the view"); the decompile of iOS 26.1's
/// UIKitCore (github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore): the swipe has the edge
/// swipe's action (`handleNavigationTransition:`, so `EdgePopRelease`), requires the edge swipe
/// to fail (the edge has priority), and makes a sheet's interactive dismissal wait for it to fail.
@Suite("The content-swipe pop in a session")
struct SessionContentPopTests {
    typealias Harness = SessionSceneTests.Harness
    typealias S = SessionSceneTests

    static let views =
        #"[{"id":"strip","kind":"horizontal-scroll","atLeadingEdge":false,"#
        + #""frame":{"x":0,"y":100,"width":390,"height":150}},"#
        + #"{"id":"carousel","kind":"horizontal-scroll","frame":{"x":0,"y":300,"width":390,"height":100}},"#
        + #"{"id":"slider","kind":"pan","frame":{"x":0,"y":450,"width":390,"height":40}}]"#

    /// nav [list, detail] on a phone (detail's content from y 91), on `ios`, with `extra` fields.
    static func scene(ios: String = "26", extra: String = "") -> String {
        #"{"type":"scene","ios":"\#(ios)"\#(extra),"root":{"id":"nav","kind":"navigation","stack":["#
            + #"{"id":"list"},{"id":"detail","views":\#(views)}]}}"#
    }

    static func stack(_ h: Harness) -> [String]? { h.scene?.scene.controller("nav")?.stack?.map(\.id) }

    /// A pan of 10 moves, settled; the scene at rest again with nothing held.
    static func panned(_ h: inout Harness, from: (Double, Double), by: (Double, Double)) -> [SessionAction] {
        let actions = h.pan(from: from, by: by) + h.settle()
        #expect(h.core.heldPointers.isEmpty && h.scene?.contentSwipe == nil)
        return actions
    }

    @Test func aRightwardPanMidScreenPopsWithTheEdgeSwipesRelease() throws {
        var h = Harness()
        h.send(Self.scene())
        #expect(h.scene?.systemGesture == .edgePop)
        var actions = h.pointer("down", x: 200, y: 700)
        actions += h.pointer("move", x: 220, y: 702)  // under the 30 pt hysteresis: held
        #expect(S.events(actions).isEmpty && h.core.heldPointers == [0] && !h.core.engine.isPointerDown)
        actions = h.pointer("move", x: 240, y: 703)  // 40 pt right, 3 down: the pop begins
        #expect(S.events(actions).first == .began(progress: 40.0 / 390, grabbed: false))
        // list was under detail at launch: its view loads as the pop reveals it.
        #expect(
            S.lifecycle(actions) == ["list.viewDidLoad", "detail.viewWillDisappear(true)", "list.viewWillAppear(true)"])
        #expect(h.core.heldPointers.isEmpty && h.core.engine.isPointerDown)
        #expect(h.core.engine.configuration.systemGesture == .edgePop)
        for x in stride(from: 260.0, through: 380, by: 20) { actions += h.pointer("move", x: x, y: 703) }
        actions += h.pointer("up", x: 380, y: 703, dt: 0) + h.settle()
        #expect(S.events(actions).last == .finished && Self.stack(h) == ["list"])
    }

    @Test(arguments: [(-200.0, 0.0), (0, 200), (0, -200), (60, 60)])
    func aLeftwardOrSteepPanDoesNotPop(_ dx: Double, _ dy: Double) {
        var h = Harness()
        h.send(Self.scene())
        let actions = Self.panned(&h, from: (200, 700), by: (dx, dy))
        #expect(S.events(actions).isEmpty && S.lifecycle(actions).isEmpty && Self.stack(h) == ["list", "detail"])
    }

    @Test func beforeIOS26OnlyTheEdgeSwipePops() {
        var h = Harness()
        h.send(Self.scene(ios: "18"))
        #expect(S.events(Self.panned(&h, from: (200, 700), by: (200, 0))).isEmpty)
        #expect(Self.stack(h) == ["list", "detail"])
        #expect(S.events(Self.panned(&h, from: (6, 700), by: (260, 0))).last == .finished)
        #expect(Self.stack(h) == ["list"])
    }

    @Test func anAppThatTurnsItOffKeepsTheEdgeSwipe() {
        var h = Harness()
        h.send(Self.scene(extra: #","contentPop":false"#))
        #expect(S.events(Self.panned(&h, from: (200, 700), by: (200, 0))).isEmpty)
        #expect(S.events(Self.panned(&h, from: (6, 700), by: (260, 0))).last == .finished)
    }

    /// A horizontal scroll view scrolls unless it is at its leading edge and the pan goes right.
    @Test func aHorizontalScrollYieldsUnlessAtItsLeadingEdge() {
        var h = Harness()
        h.send(Self.scene())
        #expect(S.events(Self.panned(&h, from: (200, 91 + 150), by: (200, 0))).isEmpty)
        #expect(S.events(Self.panned(&h, from: (200, 91 + 350), by: (-200, 0))).isEmpty)
        #expect(Self.stack(h) == ["list", "detail"])
        #expect(S.events(Self.panned(&h, from: (200, 91 + 350), by: (200, 0))).last == .finished)
    }

    /// The app's pan takes a pan that starts on it; the edge swipe still pops over it.
    @Test func theAppsPanYieldsButTheEdgeHasPriority() {
        var h = Harness()
        h.send(Self.scene())
        #expect(S.events(Self.panned(&h, from: (200, 91 + 470), by: (200, 0))).isEmpty)
        #expect(S.events(Self.panned(&h, from: (6, 91 + 470), by: (260, 0))).last == .finished)
    }

    /// A sheet holding a stack: the sheet's dismissal waits for the content swipe to fail.
    @Test func inANavigationSheetRightPopsAndDownDismisses() {
        var h = Harness()
        h.send(#"{"type":"scene","root":{"id":"home"}}"#)
        h.send(
            #"{"type":"present","controller":{"id":"sheetnav","kind":"navigation","presentationStyle":"pageSheet","#
                + #""stack":[{"id":"a"},{"id":"b"}]},"animated":false}"#)
        let popped = Self.panned(&h, from: (200, 500), by: (200, 0))
        #expect(S.events(popped).last == .finished && S.lifecycle(popped).contains("b.viewWillDisappear(true)"))
        #expect(h.scene?.scene.controller("sheetnav")?.stack?.map(\.id) == ["a"])
        h.send(#"{"type":"push","controller":"b","animated":false}"#)
        let dismissed = Self.panned(&h, from: (200, 400), by: (0, 500))
        #expect(S.lifecycle(dismissed).first == "sheetnav.presentationControllerShouldDismiss")
        #expect(S.events(dismissed).last == .finished && h.scene?.scene.presentations.isEmpty == true)
    }

    @Test func aTapAndALiftBeforeDecidingChangeNothing() {
        var h = Harness()
        h.send(Self.scene())
        let before = h.scene?.scene
        var actions = h.pointer("down", x: 200, y: 700)
        actions += h.pointer("move", x: 210, y: 702)
        actions += h.pointer("up", x: 210, y: 702)
        #expect(S.events(actions).isEmpty && h.scene?.scene == before)
        #expect(h.core.heldPointers.isEmpty && h.scene?.contentSwipe == nil)
    }

    /// While it decides the session is not at rest, and a refusal changes nothing.
    @Test func whileDecidingTheSessionIsBusyAndRefusalsChangeNothing() {
        var h = Harness()
        h.send(Self.scene())
        _ = h.pointer("down", x: 200, y: 700)
        let hub = h.hub
        #expect(S.errorCode(h.send(#"{"type":"configure","threshold":0.3}"#)) == "busy")
        #expect(S.errorCode(h.pointer("down", x: 200, y: 700)) == "pointer-already-down")
        #expect(h.hub == hub)
        // A second finger is held; the first still pops.
        _ = h.pointer("down", x: 100, y: 600, pointer: 1)
        let actions = h.pointer("move", x: 240, y: 700)
        #expect(S.events(actions).first == .began(progress: 40.0 / 390, grabbed: false))
    }

    /// A second finger that takes the edge swipe while the first decides keeps the engine: the
    /// first, once it would begin, stays held, and both fingers' events are accepted.
    @Test func anEdgeSwipeBySecondFingerKeepsTheEngine() {
        var h = Harness()
        h.send(Self.scene())
        _ = h.pointer("down", x: 200, y: 700)
        var actions = h.pointer("down", x: 6, y: 300, pointer: 1)
        actions += h.pointer("move", x: 60, y: 300, pointer: 1)
        #expect(S.events(actions).first == .began(progress: 54.0 / 390, grabbed: false))
        actions = h.pointer("move", x: 260, y: 700)  // the first finger passes 30 pt: held still
        #expect(S.events(actions).isEmpty && h.core.heldPointers == [0] && h.scene?.contentSwipe == nil)
        actions = h.pointer("up", x: 260, y: 700) + h.pointer("move", x: 300, y: 300, pointer: 1)
        actions += h.pointer("up", x: 300, y: 300, pointer: 1, dt: 0) + h.settle()
        #expect(S.errorCode(actions) == nil && S.events(actions).last == .finished && Self.stack(h) == ["list"])
    }

    /// A device turned while the swipe decides: the pop is planned again for the new bounds and
    /// nothing begins while the interface turns; the held pointer lifts without an error.
    @Test func aTurnWhileDecidingStartsNothingUntilItEnds() {
        var h = Harness()
        h.send(Self.scene())
        _ = h.pointer("down", x: 200, y: 300)
        h.send(#"{"type":"device","orientation":"landscapeLeft"}"#)
        let actions = h.pointer("move", x: 260, y: 300) + h.pointer("up", x: 260, y: 300)
        #expect(S.events(actions).isEmpty && S.errorCode(actions) == nil && h.core.heldPointers.isEmpty)
        _ = h.settle()
        #expect(Self.stack(h) == ["list", "detail"] && h.scene?.contentSwipe == nil)
    }
}
