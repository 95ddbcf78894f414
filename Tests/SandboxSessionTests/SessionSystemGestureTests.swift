import Testing
import TransitionCore

@testable import SandboxSession

/// UIKit's own gestures in a session: the pans the scene arms by itself (the edge-swipe pop,
/// an iOS 13+ sheet's swipe-down) release by `SystemGestureRelease` (its sources:
/// SystemGestureReleaseTests); the app's interactive requests keep the session's release rules.
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
        #expect(h.scene?.drivesSystemGesture == true && h.core.engine.configuration.systemGesture)
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
        #expect(h.scene?.drivesSystemGesture == false && !h.core.engine.configuration.systemGesture)
        let actions = Self.flick(&h, from: (6, 400), by: (90, 0))
        let decision = try #require(Self.released(actions))
        #expect(decision.outcome == .cancel && decision.reason == .threshold)
    }

    /// After a cancelled swipe-down the dismissal armed again is still the sheet's own gesture.
    @Test func aCancelledSheetDragArmsTheSystemGestureAgain() throws {
        var h = Harness()
        h.send(S.navigationScene)
        h.send(S.sheet)
        #expect(h.scene?.drivesSystemGesture == true)
        let held = h.pan(from: (195, 300), by: (0, 60)) + h.settle()
        #expect(S.events(held).last == .cancelled)
        #expect(h.scene?.armed?.isDefault == true && h.scene?.drivesSystemGesture == true)
        let flicked = Self.flick(&h, from: (195, 300), by: (0, 80))
        #expect(Self.released(flicked)?.reason == .projection && S.events(flicked).last == .finished)
        #expect(h.scene?.scene.presentations.isEmpty == true)
    }

    /// Before iOS 13 a sheet had no swipe-down of its own: an armed dismissal is the app's.
    @Test func beforeIOS13ASheetDismissalIsTheApps() {
        var h = Harness()
        h.send(#"{"type":"scene","ios":"12","root":{"id":"home"}}"#)
        h.send(S.sheet)
        #expect(h.scene?.drivesSystemGesture == false && !h.core.engine.configuration.systemGesture)
    }
}
