import Testing
import TransitionCore

@testable import SandboxSession

/// UIKit's own gestures in a session: the pans the scene arms by itself (the edge-swipe pop,
/// an iOS 13+ sheet's swipe-down) release by UIKit's rules (`EdgePopRelease`, `SheetSwipeRelease`;
/// their sources: EdgePopReleaseTests, SystemGestureReleaseTests); the app's interactive requests
/// keep the session's release rules.
@Suite("System gestures in a session") struct SessionSystemGestureTests {
    typealias Harness = SessionSceneTests.Harness
    typealias S = SessionSceneTests

    /// From (x, y), 4 moves of (dx, dy)/4 16 ms apart, released at once (moving).
    static func flick(_ h: inout Harness, from: (Double, Double), by: (Double, Double)) -> [SessionAction] {
        var actions = h.pointer("down", x: from.0, y: from.1)
        for i in 1...4 {
            let f = Double(i) / 4
            actions += h.pointer("move", x: from.0 + by.0 * f, y: from.1 + by.1 * f)
        }
        return actions + h.pointer("up", x: from.0 + by.0, y: from.1 + by.1, dt: 0) + h.settle()
    }

    static func released(_ actions: [SessionAction]) -> ReleaseDecision? {
        for case .released(let decision) in S.events(actions) { return decision }
        return nil
    }

    @Test func anEdgeFlickPopsWhateverTheSessionsThreshold() throws {
        var h = Harness()
        h.send(#"{"type":"configure","threshold":0.9}"#)
        h.send(S.navigationScene)
        h.send(#"{"type":"push","controller":{"id":"detail"},"animated":false}"#)
        #expect(h.scene?.systemGesture == .edgePop && h.core.engine.configuration.systemGesture == .edgePop)
        let actions = Self.flick(&h, from: (6, 400), by: (90, 0))
        let decision = try #require(Self.released(actions))
        #expect(decision.outcome == .finish && decision.reason == .projection && decision.progress < 0.25)
        #expect(S.events(actions).last == .finished)
        #expect(h.scene?.scene.controller("nav")?.stack?.map(\.id) == ["list"])
    }

    @Test func theAppsOwnInteractivePopKeepsTheSessionsRules() throws {
        var h = Harness()
        h.send(S.navigationScene)
        h.send(#"{"type":"push","controller":{"id":"detail"},"animated":false}"#)
        h.send(#"{"type":"pop","interactive":true}"#)
        #expect(h.scene?.systemGesture == nil && h.core.engine.configuration.systemGesture == nil)
        let actions = Self.flick(&h, from: (6, 400), by: (90, 0))
        let decision = try #require(Self.released(actions))
        #expect(decision.outcome == .cancel && decision.reason == .threshold)
    }

    /// After a cancelled swipe-down the dismissal armed again is still the sheet's own gesture.
    @Test func aCancelledSheetDragArmsTheSystemGestureAgain() throws {
        var h = Harness()
        h.send(S.navigationScene)
        h.send(S.sheet)
        #expect(h.scene?.systemGesture == .sheetSwipe)
        let held = h.pan(from: (195, 300), by: (0, 60)) + h.settle()
        #expect(S.events(held).last == .cancelled)
        #expect(h.scene?.armed?.isDefault == true && h.scene?.systemGesture == .sheetSwipe)
        let flicked = Self.flick(&h, from: (195, 300), by: (0, 200))
        #expect(Self.released(flicked)?.reason == .projection && S.events(flicked).last == .finished)
        #expect(h.scene?.scene.presentations.isEmpty == true)
    }

    /// Before iOS 13 a sheet had no swipe-down of its own: an armed dismissal is the app's.
    @Test func beforeIOS13ASheetDismissalIsTheApps() {
        var h = Harness()
        h.send(#"{"type":"scene","ios":"12","root":{"id":"home"}}"#)
        h.send(S.sheet)
        #expect(h.scene?.systemGesture == nil && h.core.engine.configuration.systemGesture == nil)
    }

    /// UIKit's sheet projects v·0.099 s ahead (rate 0.99) and steps one detent further on a flick
    /// of 1000 pt/s or more leaving the nearest one (`SheetSpeedThreshold`, the decompile's
    /// `draggingEndedInSource:` block; SystemGestureReleaseTests): a 40 pt flick in 32 ms
    /// (≈ 1,250 pt/s) projects only ~164 pt of the 787 pt card, yet dismisses.
    @Test func aModerateSheetFlickDismisses() throws {
        var h = Harness()
        h.send(S.navigationScene)
        h.send(S.sheet)
        var actions = h.pointer("down", x: 195, y: 300)
        actions += h.pointer("move", x: 195, y: 320)
        actions += h.pointer("move", x: 195, y: 340)
        actions += h.pointer("up", x: 195, y: 340, dt: 0) + h.settle()
        let decision = try #require(Self.released(actions))
        #expect(decision.outcome == .finish && decision.reason == .fling)
        #expect(S.events(actions).last == .finished && h.scene?.scene.presentations.isEmpty == true)
    }

    /// The same 40 pt at 10 pt a 16 ms move (625 pt/s) is no flick: the projection keeps it.
    @Test func aSlowSheetDragSnapsBack() throws {
        var h = Harness()
        h.send(S.navigationScene)
        h.send(S.sheet)
        var actions = h.pointer("down", x: 195, y: 300)
        for y in [310.0, 320, 330, 340] { actions += h.pointer("move", x: 195, y: y) }
        actions += h.pointer("up", x: 195, y: 340, dt: 0) + h.settle()
        let decision = try #require(Self.released(actions))
        #expect(decision.outcome == .cancel && decision.reason == .projection)
        #expect(S.events(actions).last == .cancelled && h.scene?.scene.presentations.count == 1)
    }

    /// `x` moved from the left edge over `steps` moves 16 ms apart, held `holdMs`, released.
    static func edgeDrag(_ h: inout Harness, y: Double, by dx: Double, steps: Int, holdMs: Double) -> [SessionAction] {
        var actions = h.pointer("down", x: 6, y: y)
        for i in 1...steps { actions += h.pointer("move", x: 6 + dx * Double(i) / Double(steps), y: y) }
        return actions + h.pointer("up", x: 6 + dx, y: y, dt: holdMs) + h.settle()
    }

    /// The pop past `min(187.5 / width, 0.5)` (EdgePopReleaseTests): an iPad held still at 0.3
    /// pops (0.229); a phone held at 0.3 does not (0.481).
    @Test func aStillEdgeReleaseAtAThirdPopsOnATabletOnly() throws {
        for (device, width, pops) in [("tablet", 820.0, true), ("phone", 390, false)] {
            var h = Harness()
            let root = #""root":{"id":"nav","kind":"navigation","stack":[{"id":"list"}]}"#
            h.send(#"{"type":"scene","device":"\#(device)",\#(root)}"#)
            h.send(#"{"type":"push","controller":{"id":"detail"},"animated":false}"#)
            let actions = Self.edgeDrag(&h, y: 500, by: 0.3 * width, steps: 60, holdMs: 200)
            let decision = try #require(Self.released(actions))
            #expect(decision.outcome == (pops ? .finish : .cancel), "\(device)")
            #expect(h.scene?.scene.controller("nav")?.stack?.count == (pops ? 1 : 2), "\(device)")
        }
    }

    /// A still release near the end completes over the transition's whole duration, not the
    /// remaining fraction of it (`completionSpeed = max(remaining, T·|v|/width)`).
    @Test func aStillEdgeReleaseNearTheEndTakesTheWholeDuration() throws {
        var h = Harness()
        h.send(S.navigationScene)
        h.send(#"{"type":"push","controller":{"id":"detail"},"animated":false}"#)
        var actions = h.pointer("down", x: 6, y: 400)
        for i in 1...60 { actions += h.pointer("move", x: 6 + 345 * Double(i) / 60, y: 400) }
        actions += h.pointer("up", x: 351, y: 400, dt: 200)
        let decision = try #require(Self.released(actions))
        #expect(decision.outcome == .finish && decision.progress > 0.85)
        let engine = h.core.engine
        let left = try #require(engine.completionEndTime) - engine.time
        #expect(abs(left - TransitionKind.push.defaultDuration) < 1e-9)
        _ = h.settle()
        #expect(h.scene?.scene.controller("nav")?.stack?.map(\.id) == ["list"])
    }
}
