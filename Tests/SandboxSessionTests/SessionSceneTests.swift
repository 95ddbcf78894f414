import Foundation
import Testing
import TransitionCore

@testable import SandboxSession

/// A session's scene over the wire: the messages, the armed operation the next pan
/// drives, the lifecycle log, and every refusal leaving the session as it was.
@Suite("The scene in a session") struct SessionSceneTests {
    static let driver = ConnectionID(number: 1)
    static let viewer = ConnectionID(number: 2)

    /// One session on a hub, driven by text, with the time moving on by itself.
    struct Harness {
        var hub = SessionHub()
        var frames = FrameCache(for: SessionHub())
        var now = 1.0
        var t = 1000.0
        var seq = 0

        init() {
            var actions: [SessionAction] = []
            hub.connect(driver, session: "s", into: &actions)
        }

        /// Sends at `now`, then lets 0.1 s pass (scene messages are rate-limited at 20 a second).
        @discardableResult
        mutating func send(_ text: String) -> [SessionAction] {
            defer { now += 0.1 }
            var actions: [SessionAction] = []
            hub.receive(Array(text.utf8), from: driver, at: now, into: &actions)
            return actions
        }

        mutating func pointer(_ phase: String, x: Double, y: Double, pointer: Int = 0, dt: Double = 16)
            -> [SessionAction]
        {
            seq += 1
            t += dt
            now += dt / 1000
            return send(
                #"{"type":"pointer","phase":"\#(phase)","x":\#(x),"y":\#(y),"t":\#(t),"seq":\#(seq),"pointerId":\#(pointer)}"#
            )
        }

        /// Down at `from`, 10 moves by (dx, dy) in all, a still 100 ms, up.
        mutating func pan(from: (Double, Double), by: (Double, Double)) -> [SessionAction] {
            var actions = pointer("down", x: from.0, y: from.1)
            for i in 1...10 {
                let f = Double(i) / 10
                actions += pointer("move", x: from.0 + by.0 * f, y: from.1 + by.1 * f)
            }
            actions += pointer("up", x: from.0 + by.0, y: from.1 + by.1, dt: 100)
            return actions
        }

        /// Display-link ticks at 60 fps until nothing animates (at most 10 s).
        mutating func settle() -> [SessionAction] {
            var actions: [SessionAction] = []
            for _ in 0..<600 {
                guard hub.isAnimating("s") else { break }  // a completion or a rotation
                now += 1 / 60
                hub.tick(fps: 60, at: now, into: &actions)
            }
            return actions
        }

        var core: SessionCore { hub.core(of: "s")! }
        var scene: SceneSession? { core.scene }
        var frameText: String {
            mutating get {
                frames.frame(for: driver, in: hub, now: now)!.full.text
            }
        }
    }

    static func lifecycle(_ actions: [SessionAction]) -> [String] {
        actions.compactMap {
            guard case .send(driver, .lifecycle(let record)) = $0 else { return nil }
            return record.event.description
        }
    }

    static func events(_ actions: [SessionAction]) -> [TransitionEvent] {
        actions.compactMap {
            guard case .send(driver, .transition(let event)) = $0 else { return nil }
            return event
        }
    }

    static func errorCode(_ actions: [SessionAction]) -> String? {
        guard actions.count == 1, case .send(_, .error(let error)) = actions[0] else { return nil }
        return error.code
    }

    static let navigationScene =
        #"{"type":"scene","root":{"id":"nav","kind":"navigation","stack":[{"id":"list","title":"List"}]}}"#
    static let sheet =
        #"{"type":"present","controller":{"id":"sheet","presentationStyle":"pageSheet"},"animated":false}"#

    // MARK: - Setting up

    @Test func withoutASceneFramesAreAsBefore() {
        var h = Harness()
        #expect(!h.frameText.contains("\"scene\""))
        #expect(Self.errorCode(h.send(Self.sheet)) == "no-scene")
        #expect(Self.errorCode(h.send(#"{"type":"pop"}"#)) == "no-scene")
    }

    @Test func aSceneLaunchesWithUIKitsCallbacksAndItsState() {
        var h = Harness()
        let actions = h.send(Self.navigationScene)
        #expect(
            Self.lifecycle(actions) == [
                "nav.viewDidLoad", "list.viewDidLoad", "nav.viewWillAppear(false)", "list.viewWillAppear(false)",
                "nav.viewDidAppear(false)", "list.viewDidAppear(false)",
            ])
        guard case .send(Self.driver, .sceneState(let report?, _)) = actions[actions.count - 2] else {
            Issue.record("no scene-state before the frame: \(actions)")
            return
        }
        // UIKit's own transitions
        #expect(report.state.topMost == "nav" && report.armed == nil && !report.interruptible)
        #expect(actions.last == .frameDue(Self.driver))
        #expect(h.frameText.contains(#""scene":{"layers":[{"controller":"list","role":"child""#))
    }

    @Test func leavingTheSceneGoesBackToTheConfiguredTransition() {
        var h = Harness()
        h.send(Self.navigationScene)
        let actions = h.send(#"{"type":"scene","root":null}"#)
        #expect(actions.contains(.send(Self.driver, .sceneState(nil))))
        #expect(h.scene == nil && !h.frameText.contains("\"scene\""))
        // The v1 pan works again.
        _ = h.pan(from: (100, 400), by: (150, 0))
        _ = h.settle()
        #expect(h.core.engine.phase == .finished)
    }

    // MARK: - Refusals

    @Test(arguments: [
        (#"{"type":"present","controller":{"id":"other"},"from":"nav","animated":false}"#, "already-presenting"),
        (#"{"type":"present","controller":"sheet","animated":false}"#, "already-presented"),
        (#"{"type":"present","controller":{"id":"list"},"animated":false}"#, "already-presented"),
        (#"{"type":"present","controller":"ghost"}"#, "unknown-controller"),
        (#"{"type":"dismiss","controller":"ghost"}"#, "unknown-controller"),
        (#"{"type":"push","controller":{"id":"x"},"navigation":"sheet"}"#, "not-in-navigation"),
        (#"{"type":"pop","navigation":"nav"}"#, "cannot-pop-root"),
        (#"{"type":"present","controller":{"id":""}}"#, "invalid-field"),
        (#"{"type":"present","controller":{"id":"a\u0007"}}"#, "invalid-field"),
        (#"{"type":"present","controller":{"id":"a","presentationStyle":"sideways"}}"#, "invalid-field"),
        (#"{"type":"present","controller":{"id":"a","stack":[]}}"#, "invalid-field"),
        (#"{"type":"present","controller":{"id":"a","kind":"navigation","stack":[]}}"#, "invalid-scene"),
        (#"{"type":"present","controller":{"id":"a"},"wings":1}"#, "unknown-field"),
        (#"{"type":"present","controller":{"id":"a"},"animated":1}"#, "invalid-field"),
        (#"{"type":"present"}"#, "missing-field"),
        (#"{"type":"scene","root":{"id":"r"},"device":"watch"}"#, "invalid-field"),
        (#"{"type":"scene"}"#, "missing-field"),
    ])
    func everyRefusalChangesNothing(_ text: String, _ code: String) {
        var h = Harness()
        h.send(Self.navigationScene)
        h.send(Self.sheet)
        let before = h.core
        let frame = h.frameText
        #expect(Self.errorCode(h.send(text)) == code)
        #expect(h.core.scene == before.scene && h.core.engine == before.engine && h.frameText == frame)
    }

    @Test func aMessageDescribesAtMost32ControllersAndIdsAreBounded() {
        var h = Harness()
        let stack = (0..<SceneSession.instanceLimit).map { #"{"id":"c\#($0)"}"# }.joined(separator: ",")
        let reply = h.send(#"{"type":"scene","root":{"id":"nav","kind":"navigation","stack":[\#(stack)]}}"#)
        #expect(Self.errorCode(reply) == "invalid-field")
        let long = String(repeating: "x", count: 65)
        #expect(Self.errorCode(h.send(#"{"type":"scene","root":{"id":"\#(long)"}}"#)) == "invalid-field")
        // bidi override, BOM, ZWJ, line separator
        for invisible in [#"a\u202Eb"#, #"\uFEFFa"#, #"a\u200Db"#, #"a\u2028b"#] {
            #expect(Self.errorCode(h.send(#"{"type":"scene","root":{"id":"\#(invisible)"}}"#)) == "invalid-field")
        }
        #expect(h.scene == nil)
    }

    @Test func aSceneSeesAtMost32ControllersOverItsLife() {
        var h = Harness()
        h.send(#"{"type":"scene","root":{"id":"root"}}"#)
        for i in 1..<SceneSession.instanceLimit {
            let present = h.send(#"{"type":"present","controller":{"id":"c\#(i)"},"animated":false}"#)
            #expect(Self.errorCode(present) == nil)
            h.send(#"{"type":"dismiss","animated":false}"#)
        }
        let before = h.core.scene
        #expect(
            Self.errorCode(h.send(#"{"type":"present","controller":{"id":"one-too-many"},"animated":false}"#))
                == "invalid-scene")
        #expect(h.core.scene == before)
        // Known instances can still come back.
        #expect(Self.errorCode(h.send(#"{"type":"present","controller":"c1","animated":false}"#)) == nil)
    }

    @Test func busyWhileAPointerIsDownOrATransitionRuns() {
        var h = Harness()
        h.send(Self.navigationScene)
        _ = h.pointer("down", x: 100, y: 400)  // nothing armed: held, acknowledged
        #expect(Self.errorCode(h.send(Self.sheet)) == "busy")
        _ = h.pointer("up", x: 100, y: 400)
        h.send(#"{"type":"present","controller":{"id":"sheet","presentationStyle":"pageSheet"}}"#)  // plays
        #expect(h.core.engine.phase == .finishing)
        #expect(Self.errorCode(h.send(#"{"type":"dismiss"}"#)) == "busy")
        #expect(Self.errorCode(h.send(#"{"type":"scene","root":null}"#)) == "busy")
    }

    // MARK: - Pans

    @Test func aPanWithNothingArmedIsAcknowledgedAndMovesNothing() {
        var h = Harness()
        h.send(#"{"type":"scene","root":{"id":"home"}}"#)
        let actions = h.pan(from: (100, 400), by: (200, 0))
        #expect(Self.events(actions).isEmpty && Self.lifecycle(actions).isEmpty)
        #expect(h.core.ack == h.seq && h.core.engine.phase == .idle)
    }

    @Test func afterAPresentTheNextPanDismissesAndACancelRunsUIKitsOrder() {
        var h = Harness()
        h.send(Self.navigationScene)
        h.send(Self.sheet)
        #expect(h.scene?.report.armed?.action == .dismiss && h.scene?.report.armed?.isDefault == true)
        // Cover vertical dismisses downwards, 1:1 with the finger: 60 pt of the 787 pt card is
        // under the threshold.
        var actions = h.pan(from: (195, 300), by: (0, 60))
        actions += h.settle()
        #expect(Self.events(actions).last == .cancelled)
        #expect(
            Self.lifecycle(actions) == [
                "sheet.presentationControllerShouldDismiss", "sheet.presentationControllerWillDismiss",
                "sheet.viewWillDisappear(true)", "sheet.completeTransition(false)",
                "sheet.viewWillAppear(true)", "sheet.viewDidAppear(true)",
            ])
        #expect(h.scene?.scene.presentations.map(\.presented.id) == ["sheet"])
        #expect(h.frameText.contains(#""phase":"cancelled""#))
        // A longer pan finishes it: the presenter under a sheet gets no appearance callbacks.
        actions = h.pan(from: (195, 300), by: (0, 450))
        actions += h.settle()
        #expect(
            Self.lifecycle(actions) == [
                "sheet.presentationControllerShouldDismiss", "sheet.presentationControllerWillDismiss",
                "sheet.viewWillDisappear(true)", "sheet.completeTransition(true)", "sheet.viewDidDisappear(true)",
                "sheet.presentationControllerDidDismiss",
            ])
        #expect(h.scene?.scene.presentations.isEmpty == true && h.scene?.armed == nil)
    }

    @Test func anInteractivePresentStartsWhenThePanBeginsAndIsArmedAgainAfterACancel() {
        var h = Harness()
        h.send(#"{"type":"scene","root":{"id":"home"}}"#)
        let armed = h.send(
            #"{"type":"present","controller":{"id":"card","transitionStyle":"fade","presentationStyle":"fullScreen"},"#
                + #""interactive":true}"#)
        #expect(Self.lifecycle(armed).isEmpty && h.scene?.armed?.isDefault == false)
        // A tap is no pan: nothing starts.
        _ = h.pointer("down", x: 100, y: 400)
        let tap = h.pointer("up", x: 100, y: 400)
        #expect(Self.lifecycle(tap).isEmpty && h.scene?.flight == nil)
        var actions = h.pan(from: (100, 400), by: (40, 0))
        actions += h.settle()
        #expect(
            Self.lifecycle(actions) == [
                "card.viewDidLoad", "home.viewWillDisappear(true)", "card.viewWillAppear(true)",
                "card.completeTransition(false)", "card.viewWillDisappear(true)", "card.viewDidDisappear(true)",
                "home.viewWillAppear(true)", "home.viewDidAppear(true)",
            ])
        #expect(h.scene?.armed?.command.request.action == .present)
        actions = h.pan(from: (100, 400), by: (180, 0))
        actions += h.settle()
        #expect(Self.events(actions).last == .finished)
        // The same instance tried again: its view is loaded already.
        #expect(Self.lifecycle(actions).first == "home.viewWillDisappear(true)")
        // Full screen: no system dismissal gesture (only iOS 13+ sheets have one).
        #expect(h.scene?.scene.topMost == "card" && h.scene?.armed == nil)
    }

    /// Before iOS 26 (from 26 a mid-screen pan pops too: SessionContentPopTests).
    @Test func anEdgeSwipePopBeginsOnlyAtTheLeftEdge() {
        var h = Harness()
        h.send(Self.navigationScene.replacingOccurrences(of: #""type":"scene","#, with: #""type":"scene","ios":"18","#))
        h.send(#"{"type":"push","controller":{"id":"detail"},"animated":false}"#)
        #expect(h.scene?.report.armed?.edgeSwipe == true)
        var actions = h.pan(from: (150, 400), by: (200, 0))
        #expect(Self.events(actions).isEmpty && h.core.engine.phase == .idle)
        actions = h.pan(from: (5, 400), by: (250, 0))
        actions += h.settle()
        #expect(
            Self.lifecycle(actions) == [
                "detail.viewWillDisappear(true)", "list.viewWillAppear(true)", "detail.completeTransition(true)",
                "detail.viewDidDisappear(true)", "list.viewDidAppear(true)",
            ])
        #expect(h.scene?.report.state.navigationStacks.first?.stack == ["list"])
    }

    @Test func aGrabCatchesARunningTransitionOnlyWhenInterruptible() {
        for interruptible in [true, false] {
            var h = Harness()
            h.send(#"{"type":"scene","root":{"id":"home"},"interruptible":\#(interruptible)}"#)
            h.send(#"{"type":"present","controller":{"id":"card"}}"#)
            #expect(h.core.engine.phase == .finishing)
            let grab = h.pointer("down", x: 100, y: 400)
            #expect(
                Self.events(grab).contains(.began(progress: h.core.engine.progress, grabbed: true)) == interruptible)
            if interruptible { continue }
            // Not interruptible: the completion runs on under the held pointer, which lifts later.
            var actions = h.settle()
            actions += h.pointer("up", x: 100, y: 400)
            #expect(Self.events(actions).contains(.finished) && h.scene?.scene.topMost == "card")
            #expect(h.core.ack == h.seq)
        }
    }

    @Test func playRunsTheArmedOperationAndNeedsOneAndARestingSession() {
        var h = Harness()
        h.send(Self.navigationScene)
        _ = h.pointer("down", x: 100, y: 400)
        #expect(Self.errorCode(h.send(#"{"type":"play"}"#)) == "busy")  // a pointer is down
        _ = h.pointer("up", x: 100, y: 400)
        h = Harness()
        h.send(#"{"type":"scene","root":{"id":"home"}}"#)
        #expect(Self.errorCode(h.send(#"{"type":"play"}"#)) == "nothing-armed")
        h.send(Self.sheet)
        let actions = h.send(#"{"type":"play"}"#) + h.settle()
        #expect(Self.events(actions).first == .played && Self.events(actions).last == .finished)
        #expect(h.scene?.scene.presentations.isEmpty == true)
    }

    @Test func configureKeepsTheSceneAndItsOperationsKind() {
        var h = Harness()
        h.send(Self.navigationScene)
        h.send(Self.sheet)
        h.send(#"{"type":"configure","transition":"flip-horizontal","threshold":0.2}"#)
        #expect(h.core.engine.configuration.kind == .coverVertical && h.core.engine.configuration.threshold == 0.2)
        // The sheet's swipe-down is UIKit's gesture: the app's threshold does not decide it
        // (SheetSwipeRelease): released still at 200 / 787 it cancels, past the half it finishes.
        var actions = h.pan(from: (195, 300), by: (0, 200))
        actions += h.settle()
        #expect(Self.events(actions).last == .cancelled)
        actions = h.pan(from: (195, 300), by: (0, 420)) + h.settle()
        #expect(Self.events(actions).last == .finished)
    }

    @Test func aViewerJoiningASceneGetsItsState() {
        var h = Harness()
        h.send(Self.navigationScene)
        var actions: [SessionAction] = []
        h.hub.connect(Self.viewer, session: "v", into: &actions)
        actions = []
        h.hub.receive(Array(#"{"type":"join","session":"s"}"#.utf8), from: Self.viewer, at: h.now, into: &actions)
        #expect(actions.contains(.send(Self.viewer, .sceneState(h.scene!.report))))
        let lifecycle = h.send(Self.sheet).filter {
            if case .send(Self.viewer, .lifecycle) = $0 { return true } else { return false }
        }
        #expect(lifecycle.count == 4)  // sheet: viewDidLoad, viewWillAppear, completeTransition, viewDidAppear
    }

    // MARK: - Frames

    @Test func theSheetFollowsTheFingerAndKeepsItsCorners() throws {
        var h = Harness()
        h.send(Self.navigationScene)
        h.send(Self.sheet)
        #expect(h.core.engine.configuration.distance == 787)  // the card's height
        _ = h.pointer("down", x: 195, y: 300)
        _ = h.pointer("move", x: 195, y: 320)
        _ = h.pointer("move", x: 195, y: 400)
        let before = h.core.engine.progress
        _ = h.pointer("move", x: 195, y: 480)
        // 1:1: 80 pt more of the finger is 80 pt more of the 787 pt card.
        #expect(abs(h.core.engine.progress - before - 80.0 / 787) < 1e-9)
        let frame = try JSONSerialization.jsonObject(with: Data(h.frameText.utf8)) as! [String: Any]
        let card = (frame["layers"] as! [[String: Any]]).first { $0["controller"] as? String == "sheet" }!
        #expect(card["cornerRadius"] as? Double == 10)
    }

    @Test func framesDrawTheStillViewsAndTheMovingOne() throws {
        var h = Harness()
        h.send(Self.navigationScene)
        h.send(Self.sheet)
        let frame = try JSONSerialization.jsonObject(with: Data(h.frameText.utf8)) as! [String: Any]
        let scene = frame["scene"] as! [String: Any]
        let transition = scene["transition"] as! [String: Any]
        #expect(transition["from"] as? String == "sheet" && transition["to"] as? String == "nav")
        let layers = frame["layers"] as! [[String: Any]]
        #expect(layers.map { $0["controller"] as? String } == ["sheet"])
        let still = (scene["layers"] as! [[String: Any]]).map { $0["controller"] as! String }
        #expect(still == ["list", "nav"] && !still.contains("sheet"))
    }

    @Test func sceneMessagesAreRateLimitedAndARefusalChangesNothing() {
        var h = Harness()
        h.send(#"{"type":"scene","root":{"id":"home"}}"#)
        var codes: [String?] = []
        for _ in 0..<Int(SessionHub.sceneMessageBurst) + 5 {  // all at one instant
            var actions: [SessionAction] = []
            h.hub.receive(
                Array(#"{"type":"dismiss","animated":false}"#.utf8), from: Self.driver, at: h.now, into: &actions)
            codes.append(Self.errorCode(actions))
        }
        #expect(codes.filter { $0 == "nothing-presented" }.count == Int(SessionHub.sceneMessageBurst))
        #expect(codes.suffix(5).allSatisfy { $0 == "scene-rate-limited" })
        h.now += 1  // 20 more
        #expect(Self.errorCode(h.send(#"{"type":"present","controller":{"id":"a"},"animated":false}"#)) == nil)
    }

    /// A down that arrives after the completion's end but before
    /// the next tick brings it to its end, the engine is replaced, and the pointer's moves and
    /// lift were refused (`pointer-not-down`).
    @Test func aPointerThatLandsAsATransitionEndsIsHeldNotLost() {
        var h = Harness()
        h.send(#"{"type":"scene","root":{"id":"home"},"interruptible":true}"#)
        h.send(Self.sheet)
        h.send(#"{"type":"play"}"#)  // the dismissal plays: 0.5 s
        h.now += 2  // no tick meanwhile
        let down = h.pointer("down", x: 100, y: 400)
        #expect(Self.events(down).contains(.finished))
        let rest = h.pointer("move", x: 150, y: 400) + h.pointer("up", x: 150, y: 400)
        #expect(!rest.contains { if case .send(_, .error) = $0 { return true } else { return false } })
        #expect(h.core.ack == h.seq)
    }

    /// UIKit's edge-swipe pop and a sheet's swipe-down coexist: a pan from the edge pops the
    /// sheet's navigation stack, one from mid-card dismisses the sheet (iOS-engineer review).
    @Test func aPanAwayFromTheEdgeDismissesASheetWhoseStackCouldPop() {
        var h = Harness()
        h.send(#"{"type":"scene","root":{"id":"home"}}"#)
        h.send(
            #"{"type":"present","controller":{"id":"nav","kind":"navigation","presentationStyle":"pageSheet","stack":[{"id":"a"},{"id":"b"}]},"animated":false}"#
        )
        #expect(h.scene?.armed?.plan.action == .pop)
        var actions = h.pan(from: (195, 300), by: (0, 500))
        actions += h.settle()
        #expect(Self.lifecycle(actions).prefix(3).last == "nav.viewWillDisappear(true)")
        #expect(h.scene?.scene.presentations.isEmpty == true)
    }

    /// The presenter under a phone sheet comes forward at the animation's pace: the kind's
    /// curve of the progress, not the raw progress (iOS-engineer review).
    @Test func thePresenterComesForwardAtTheSheetsPace() throws {
        var h = Harness()
        h.send(Self.navigationScene)
        h.send(Self.sheet)
        _ = h.pointer("down", x: 195, y: 300)
        _ = h.pointer("move", x: 195, y: 320)
        _ = h.pointer("move", x: 195, y: 500)
        let progress = h.core.engine.progress
        let frame = try JSONSerialization.jsonObject(with: Data(h.frameText.utf8)) as! [String: Any]
        let still = (frame["scene"] as! [String: Any])["layers"] as! [[String: Any]]
        let list = still.first { $0["controller"] as? String == "list" }!
        let pushedBack = SceneDevice.phone.pushedBackScale
        let eased = TransitionKind.coverVertical.animated(progress)
        #expect(eased != progress)
        // To the frame's precision (1e-6: docs/PROTOCOL.md, "Delta frames").
        #expect(abs((list["scale"] as! Double) - (pushedBack + (1 - pushedBack) * eased)) < 5e-7 + 1e-12)
    }

    /// A tablet form sheet's dismissal pan belongs to the card: a drag on the dimmed area
    /// around it moves nothing (iOS-engineer review).
    @Test func aFormSheetIsDismissedFromItsCardNotFromTheDimmedArea() {
        var h = Harness()
        h.send(#"{"type":"scene","device":"tablet","root":{"id":"home"}}"#)
        h.send(#"{"type":"present","controller":{"id":"form","presentationStyle":"formSheet"},"animated":false}"#)
        let card = h.scene!.armed!.plan.container
        var actions = h.pan(from: (card.minX - 60, card.minY + 100), by: (0, 500))
        #expect(Self.events(actions).isEmpty && h.core.engine.phase == .idle)
        actions = h.pan(from: (card.midX, card.minY + 100), by: (0, 500))
        actions += h.settle()
        #expect(Self.events(actions).last == .finished && h.scene?.scene.presentations.isEmpty == true)
    }
}
