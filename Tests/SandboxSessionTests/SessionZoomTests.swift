import Testing
import TransitionCore

@testable import SandboxSession

/// The zoom transition in a session: `source` on present and push, its refusals, the echo in
/// `scene-state`, the dismissal gesture the scene arms by itself (a drag down anywhere in the
/// zoomed view; for a zoom push also the edge swipe), the named views drawn as layers, the
/// source hidden and the covered side dimmed while it zooms, and the zoom always interruptible.
/// Sources: Apple, `UIViewController.preferredTransition` and "Enhancing your app with fluid
/// transitions" (developer.apple.com/documentation/uikit/enhancing-your-app-with-fluid-transitions):
/// iOS 18.0+, a zoom grows out of the view the source provider returns, and people "grab, drag,
/// and control the transitions when they begin and anytime during their animation".
@Suite("The zoom transition in a session") struct SessionZoomTests {
    typealias Harness = SessionSceneTests.Harness
    typealias S = SessionSceneTests

    static let library =
        #"{"type":"scene","root":{"id":"library","views":["#
        + #"{"id":"thumb","frame":{"x":16,"y":300,"width":120,"height":120}},"#
        + #"{"id":"strip","kind":"horizontal-scroll","frame":{"x":0,"y":600,"width":390,"height":100}}]}}"#
    static let zoom = #"{"type":"present","controller":{"id":"photo"},"transition":"zoom","source":"thumb"}"#

    @Test func aZoomPresentIsEchoedWithItsSourceAndArmsTheDragDown() throws {
        var h = Harness()
        h.send(Self.library)
        let actions = h.send(Self.zoom) + h.settle()
        #expect(S.events(actions).last == .finished)
        let presentation = try #require(h.scene?.scene.state.presentations.first)
        #expect(presentation.transition == .zoom && presentation.style == .fullScreen)
        #expect(presentation.sourceView == ZoomSource(controller: "library", view: "thumb"))
        #expect(h.scene?.armed?.plan.action == .dismiss && h.scene?.armed?.isDefault == true)
        #expect(h.scene?.systemGesture == .zoomDismiss && h.core.engine.configuration.systemGesture == .zoomDismiss)
        #expect(h.core.engine.configuration.originFrame == Rect(x: 16, y: 300, width: 120, height: 120))
        let echo = ServerMessages.encode(.sceneState(h.scene!.report), headroom: 0).text
        #expect(echo.contains(#""sourceView":{"controller":"library","view":"thumb"}"#))
    }

    /// Bad sources are refused with a clear error, and change nothing.
    @Test(arguments: [
        (#"{"type":"present","controller":{"id":"photo"},"transition":"zoom","source":"nope"}"#, "invalid-source"),
        (#"{"type":"present","controller":{"id":"photo"},"transition":"zoom","source":"strip"}"#, "invalid-source"),
        (#"{"type":"present","controller":{"id":"photo"},"transition":"zoom"}"#, "invalid-source"),
        (
            #"{"type":"present","controller":{"id":"photo"},"transition":"cover-vertical","source":"thumb"}"#,
            "invalid-source"
        ),
        (#"{"type":"present","controller":{"id":"photo"},"transition":"zoom","source":""}"#, "invalid-field"),
        (#"{"type":"present","controller":{"id":"photo"},"transition":"zoom","source":7}"#, "invalid-field"),
        (#"{"type":"dismiss","source":"thumb"}"#, "unknown-field"),
    ])
    func refusals(_ message: String, _ code: String) {
        var h = Harness()
        h.send(Self.library)
        let before = h.scene
        #expect(S.errorCode(h.send(message)) == code)
        #expect(h.scene == before)
    }

    @Test func theZoomIsIOS18Plus() {
        var h = Harness()
        h.send(Self.library.replacingOccurrences(of: #""type":"scene","#, with: #""type":"scene","ios":"17","#))
        let actions = h.send(Self.zoom)
        #expect(S.errorCode(actions) == "unavailable-in-ios")
        #expect(h.scene?.scene.presentations.isEmpty == true)
    }

    /// The named views are drawn as layers (role `view`) above their controller's view.
    @Test func namedViewsAreLayers() {
        var h = Harness()
        h.send(Self.library)
        let text = h.frameText
        #expect(text.contains(#""role":"view","frame":[16,300,120,120]"#) && text.contains(#""view":"thumb""#))
        #expect(text.contains(#""view":"strip""#))
    }

    /// While the card zooms the source view is hidden and the covered side dims; the drag down
    /// follows the finger in two dimensions and, released early, springs back home.
    @Test func theSourceHidesAndTheCoveredSideDims() throws {
        var h = Harness()
        h.send(Self.library)
        h.send(Self.zoom)
        h.now += 0.1
        var ticks: [SessionAction] = []
        h.hub.tick(fps: 60, at: h.now, into: &ticks)
        let picture = h.scene!.scene.picture
        let drawn = h.scene!.drawnLayers(picture, progress: 0.5, animator: h.core.engine.frame().layers)
        let source = try #require(drawn.first { $0.view == "thumb" })
        #expect(source.opacity == 0)
        let dimming = try #require(drawn.first { $0.role == .dimming })
        #expect(abs(dimming.opacity - ZoomAnimator.dimmingAlpha * 0.5) < 1e-12)
        _ = h.settle()
        let held = h.pan(from: (195, 400), by: (40, 60)) + h.settle()
        #expect(S.events(held).contains { if case .released(let d) = $0 { d.outcome == .cancel } else { false } })
        #expect(h.scene?.scene.presentations.count == 1)
    }

    @Test func aZoomDismissalHasNoPredictionTable() throws {
        var tables = PredictionTables()
        let dismissal = try ZoomDismissReleaseEngine.configuration()
        #expect(tables.table(for: dismissal, at: 1).table == nil)
        var present = dismissal
        present.operation = .present
        #expect(tables.table(for: present, at: 1).table != nil)
    }

    /// A touch during the zoom's settle catches it, though the scene was not made interruptible.
    @Test func theZoomIsAlwaysInterruptible() {
        var h = Harness()
        h.send(Self.library)
        h.send(Self.zoom)
        let grab = h.pointer("down", x: 200, y: 400)
        #expect(S.events(grab).contains { if case .began(_, grabbed: true) = $0 { true } else { false } })
    }

    /// A zoom push pops with the zoom: the edge swipe, and a drag down anywhere in the photo.
    @Test func aZoomPushPopsByEdgeSwipeOrDragDown() throws {
        var h = Harness()
        h.send(
            #"{"type":"scene","root":{"id":"nav","kind":"navigation","stack":[{"id":"grid","views":["#
                + #"{"id":"thumb","frame":{"x":148,"y":200,"width":120,"height":160}}]}]}}"#)
        let pushed = h.send(
            #"{"type":"push","controller":{"id":"photo"},"transition":"zoom","source":"thumb","animated":false}"#)
        #expect(S.errorCode(pushed) == nil, "\(pushed)")
        #expect(h.scene?.armed?.plan.kind == .zoom && h.scene?.systemGesture == .edgePop)
        let actions = h.pan(from: (195, 400), by: (100, 300)) + h.settle()
        #expect(S.events(actions).last == .finished)
        #expect(h.scene?.scene.controller("nav")?.stack?.map(\.id) == ["grid"])
    }
}

/// The configuration a scene gives a zoom-presented controller's drag down.
enum ZoomDismissReleaseEngine {
    static func configuration() throws -> TransitionConfiguration {
        var h = SessionSceneTests.Harness()
        h.send(SessionZoomTests.library)
        let sent = h.send(
            #"{"type":"present","controller":{"id":"photo"},"transition":"zoom","source":"thumb","animated":false}"#)
        try #require(SessionSceneTests.errorCode(sent) == nil, "\(sent)")
        let configuration = h.core.engine.configuration
        try #require(
            configuration.kind == .zoom && configuration.operation == .dismiss,
            "\(String(describing: h.scene?.armed?.plan)) \(String(describing: h.scene?.scene.presentations))")
        return configuration
    }
}
