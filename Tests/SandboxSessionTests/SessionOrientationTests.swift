import Foundation
import Testing
import TransitionCore

@testable import SandboxSession

/// Orientation over the wire: the messages, the rotation played on the display
/// link, and refusals that change nothing.
@Suite("Orientation in a session") struct SessionOrientationTests {
    typealias Harness = SessionSceneTests.Harness
    static let allOrientations =
        #"{"type":"scene","root":{"id":"nav","kind":"navigation","stack":[{"id":"list"}],"supportedOrientations":["all"]}}"#

    static func frame(_ h: inout Harness) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(h.frameText.utf8)) as! [String: Any]
    }

    static func root(_ h: inout Harness) throws -> [String: Any] {
        ((try frame(&h))["scene"] as! [String: Any])["root"] as! [String: Any]
    }

    @Test func aDeviceTurnPlaysAQuarterTurnAndEndsExactly() throws {
        var h = Harness()
        h.send(Self.allOrientations)
        let turn = h.send(#"{"type":"device","orientation":"landscapeLeft"}"#)
        #expect(
            SessionSceneTests.lifecycle(turn) == [
                // the bar is 32 pt in landscape
                "nav.viewWillTransition(844.0×390.0)", "list.viewWillTransition(844.0×358.0)",
                "nav.viewWillLayoutSubviews", "list.viewWillLayoutSubviews",
            ])
        #expect(turn.contains(.startTicking(fps: 60)))
        #expect(h.scene?.scene.interfaceOrientation == .landscapeRight)  // committed at once
        #expect((try Self.root(&h))["rotating"] is [String: Any])
        var fractions: [Double] = []
        for _ in 0..<60 where h.scene?.rotation != nil {
            h.now += 1 / 60
            var actions: [SessionAction] = []
            h.hub.tick(fps: 60, at: h.now, into: &actions)
            if let rotating = (try Self.root(&h))["rotating"] as? [String: Any] {
                fractions.append(rotating["fraction"] as! Double)
            }
        }
        // A phone's 0.3 s at 60 fps (0.1 s of it passed with the message), forward only.
        #expect(fractions.count >= 10 && fractions == fractions.sorted())
        let end = try Self.root(&h)
        #expect(end["transform"] as! [Double] == [0, 1, -1, 0, 0, 0] && end["bounds"] as! [Double] == [844, 390])
        #expect(end["rotating"] is NSNull)
    }

    /// A half turn of 2 s a quarter slowed to 0.05 would take 80 s on the display: like a
    /// completion, it takes at most `longestCompletion` (60 s), so a client cannot hold the
    /// display link (and the scene `busy`) longer than any other animation.
    @Test func aSlowedTurnEndsWithinTheCompletionCap() throws {
        var h = Harness()
        h.send(#"{"type":"configure","timeScale":0.05}"#)
        h.send(
            #"{"type":"scene","device":"tablet","rotationDuration":2,"root":{"id":"r","supportedOrientations":["all"]}}"#
        )
        h.send(#"{"type":"device","orientation":"portraitUpsideDown"}"#)
        #expect(h.scene?.rotation != nil)
        let start = h.now
        var ended: Double?
        while h.now - start < 70, ended == nil {
            h.now += 0.5
            var actions: [SessionAction] = []
            h.hub.tick(fps: 60, at: h.now, into: &actions)
            if h.scene?.rotation == nil { ended = h.now - start }
        }
        let seconds = try #require(ended)
        #expect(seconds > 59 && seconds <= 60.5, "ended after \(seconds) s")
    }

    @Test func aPortraitOnlyRootStaysPortraitAndAnUpdateWaitsForAnAttempt() throws {
        var h = Harness()
        h.send(#"{"type":"scene","root":{"id":"player","supportedOrientations":["portrait"]}}"#)
        #expect(SessionSceneTests.lifecycle(h.send(#"{"type":"device","orientation":"landscapeLeft"}"#)).isEmpty)
        #expect(h.scene?.scene.interfaceOrientation == .portrait && h.scene?.scene.deviceOrientation == .landscapeLeft)
        // Only the properties named change; nothing turns until the attempt.
        h.send(#"{"type":"update","controller":"player","supportedOrientations":["landscape"]}"#)
        #expect(h.scene?.scene.interfaceOrientation == .portrait)
        #expect(h.scene?.scene.controller("player")?.shouldAutorotate == true)
        h.send(#"{"type":"attempt-rotation"}"#)
        #expect(h.scene?.scene.interfaceOrientation == .landscapeRight && h.scene?.rotation != nil)
        _ = h.settle()
        h.send(#"{"type":"update","controller":"player","preferredOrientation":"landscapeLeft"}"#)
        #expect(h.scene?.scene.controller("player")?.preferredOrientation == .landscapeLeft)
        h.send(#"{"type":"update","controller":"player","preferredOrientation":null}"#)  // null clears
        #expect(h.scene?.scene.controller("player")?.preferredOrientation == nil)
        #expect(h.scene?.scene.controller("player")?.supportedMask == .landscape)  // untouched
    }

    @Test(arguments: [
        (#"{"type":"device","orientation":"sideways"}"#, "invalid-field"),
        (#"{"type":"device"}"#, "missing-field"),
        (#"{"type":"update","controller":"ghost","shouldAutorotate":false}"#, "unknown-controller"),
        (#"{"type":"update","controller":"nav","supportedOrientations":0}"#, "invalid-field"),
        (#"{"type":"update","controller":"nav","supportedOrientations":[]}"#, "invalid-field"),
        (
            #"{"type":"request-geometry-update","interfaceOrientations":["portraitUpsideDown"]}"#,
            "geometry-update-refused"
        ),  // not on a phone
        (#"{"type":"request-geometry-update"}"#, "missing-field"),
        (#"{"type":"request-geometry-update","interfaceOrientations":0}"#, "invalid-field"),
        (#"{"type":"request-geometry-update","interfaceOrientations":[1e308]}"#, "invalid-field"),
        (#"{"type":"update-supported-orientations","now":true}"#, "unknown-field"),
        (#"{"type":"scene","root":{"id":"r"},"rotationDuration":1e308}"#, "invalid-field"),
        (#"{"type":"scene","root":{"id":"r"},"rotationDuration":-0.1}"#, "invalid-field"),
        (#"{"type":"scene","root":{"id":"r"},"rotationDuration":"0.3"}"#, "invalid-field"),
        (#"{"type":"scene","root":{"id":"r"},"ios":"15","rotationCallbacks":"sideways"}"#, "invalid-field"),
        (#"{"type":"update","controller":"nav","supportedOrientations":1}"#, "invalid-field"),
        (#"{"type":"update","controller":"nav","supportedOrientations":["diagonal"]}"#, "invalid-field"),
        (#"{"type":"update","controller":"nav","wings":2}"#, "unknown-field"),
        (#"{"type":"attempt-rotation","now":true}"#, "unknown-field"),
        (
            #"{"type":"scene","root":{"id":"r","supportedOrientations":["landscape"]},"appOrientations":["portrait"]}"#,
            "no-common-orientation"
        ),
    ])
    func everyOrientationRefusalChangesNothing(_ text: String, _ code: String) {
        var h = Harness()
        h.send(Self.allOrientations)
        let before = h.core
        let frame = h.frameText
        #expect(SessionSceneTests.errorCode(h.send(text)) == code)
        #expect(h.core.scene == before.scene && h.frameText == frame)
    }

    @Test func aDeviceTurnIsNeverRefusedButARotationMakesTheSceneBusy() {
        var h = Harness()
        h.send(Self.allOrientations)
        h.send(#"{"type":"push","controller":{"id":"detail"},"animated":false}"#)
        _ = h.pointer("down", x: 5, y: 400)
        _ = h.pointer("move", x: 60, y: 400)  // an edge-swipe pop tracking
        #expect(SessionSceneTests.errorCode(h.send(#"{"type":"device","orientation":"landscapeLeft"}"#)) == nil)
        #expect(h.scene?.scene.deviceOrientation == .landscapeLeft && h.scene?.scene.interfaceOrientation == .portrait)
        #expect(SessionSceneTests.errorCode(h.send(#"{"type":"attempt-rotation"}"#)) == "busy")
        _ = h.pointer("up", x: 60, y: 400)
        // The transition over, the interface catches up with the device (UIKit re-reads the
        // masks then), and while it turns the scene is busy.
        var actions: [SessionAction] = []
        for _ in 0..<120 where h.scene?.rotation == nil {
            h.now += 1 / 60
            h.hub.tick(fps: 60, at: h.now, into: &actions)
        }
        #expect(h.scene?.rotation != nil && h.scene?.scene.interfaceOrientation == .landscapeRight)
        #expect(
            SessionSceneTests.errorCode(h.send(#"{"type":"push","controller":{"id":"x"},"animated":false}"#)) == "busy")
        _ = h.settle()
        #expect(
            SessionSceneTests.errorCode(h.send(#"{"type":"push","controller":{"id":"x"},"animated":false}"#)) == nil)
    }

    /// With nothing allowed (a push under forwarding can make such a decider), a device turn
    /// is where UIKit asks: `no-common-orientation` if the decider autorotates (always from
    /// iOS 16), changing nothing; with `shouldAutorotate` NO before 16 it is recorded and
    /// nothing turns (SceneOrientationVersionTests.noCommonOrientationWhenUIKitAsks).
    @Test(arguments: [
        ("15", false, nil), ("15", true, "no-common-orientation"), ("16", false, "no-common-orientation"),
    ])
    func aDeviceTurnWithNothingAllowed(_ ios: String, _ autorotates: Bool, _ code: String?) {
        var h = Harness()
        h.send(
            #"{"type":"scene","ios":"\#(ios)","containerForwardsOrientation":true,"root":{"id":"nav","kind":"navigation","stack":[{"id":"list"}]}}"#
        )
        h.send(
            #"{"type":"push","controller":{"id":"upside","supportedOrientations":["portraitUpsideDown"],"shouldAutorotate":\#(autorotates)},"animated":false}"#
        )
        #expect(h.scene?.scene.allowedOrientations.isEmpty == true)
        let before = h.core
        #expect(SessionSceneTests.errorCode(h.send(#"{"type":"device","orientation":"landscapeLeft"}"#)) == code)
        if code == nil {
            #expect(h.scene?.scene.deviceOrientation == .landscapeLeft)
        } else {
            #expect(h.core.scene == before.scene)
        }
        #expect(h.scene?.scene.interfaceOrientation == .portrait)
    }

    /// Hostile review: a pan cannot start an operation while the interface turns, and a turn
    /// under a pointer that has not begun a pan holds that pointer (the engine is rebuilt for
    /// the new bounds).
    @Test func nothingStartsWhileTheInterfaceTurns() {
        var h = Harness()
        h.send(
            #"{"type":"scene","root":{"id":"nav","kind":"navigation","stack":[{"id":"list"},{"id":"detail"}],"supportedOrientations":["all"]}}"#
        )
        _ = h.pointer("down", x: 10, y: 400)  // on the edge-swipe pop, not begun yet
        h.send(#"{"type":"device","orientation":"landscapeLeft"}"#)
        #expect(h.scene?.rotation != nil && h.core.engine.isPointerDown == false)
        let moves = h.pointer("move", x: 200, y: 200) + h.pointer("up", x: 200, y: 200)
        #expect(SessionSceneTests.events(moves).isEmpty && SessionSceneTests.errorCode(moves) == nil)
        let pan = h.pan(from: (5, 200), by: (300, 0))  // during the turn: held
        #expect(SessionSceneTests.events(pan).isEmpty)
        _ = h.settle()
        #expect(h.core.engine.configuration.container.width == 844)  // the pop, laid out in landscape
        let after = h.pan(from: (5, 200), by: (500, 0)) + h.settle()
        #expect(SessionSceneTests.events(after).last == .finished)
    }

    /// Seed 003: in a landscape interface the flip turns about the device's long axis.
    @Test func aFlipInLandscapeTurnsAboutTheDevicesLongAxis() {
        var h = Harness()
        h.send(#"{"type":"scene","root":{"id":"home","supportedOrientations":["all"]}}"#)
        h.send(#"{"type":"present","controller":{"id":"card","transitionStyle":"flip-horizontal"},"interactive":true}"#)
        #expect(h.core.engine.configuration.longAxisHorizontal == false)
        h.send(#"{"type":"device","orientation":"landscapeLeft"}"#)
        _ = h.settle()
        #expect(h.core.engine.configuration.kind == .flipHorizontal && h.core.engine.configuration.longAxisHorizontal)
    }
}
