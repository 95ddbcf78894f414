import Testing

@testable import TransitionCore

/// The zoom dismissal's release (ZoomDismissRelease) and its two-dimensional drag in the engine
/// (InteractiveTransition+Zoom). Apple publishes no numbers: the projection is the sheet's
/// hyper interactor's (r = 0.99: the decompile of iOS 26.1's UIKitCore, `_UISheetInteraction`),
/// the threshold (a fifth of the pan's extent) is inferred, chosen.
@Suite("The zoom dismissal's release and drag")
struct ZoomDismissReleaseTests {
    static let source = Rect(x: 16, y: 120, width: 120, height: 90)

    /// The engine a scene makes for a zoom-presented controller's drag down.
    static func engine() throws -> InteractiveTransition {
        var c = TransitionConfiguration(kind: .zoom)
        c.container = Size(width: 390, height: 844)
        c.originFrame = source
        let plan = SceneTransitionPlan(
            action: .dismiss, kind: .zoom, from: "detail", to: "root", style: .fullScreen, context: nil,
            container: Rect(x: 0, y: 0, width: 390, height: 844), removesPresenterView: true, edgeSwipe: false,
            animated: true, startEvents: [])
        var configured = plan.configuration(from: c)
        configured.systemGesture = .zoomDismiss
        return try InteractiveTransition(configuration: configured)
    }

    static func card(_ engine: InteractiveTransition) throws -> LayerState {
        try #require(engine.frame().layers.first { $0.id == .from })
    }

    @Test func numbers() {
        #expect(ZoomDismissRelease.threshold == 0.2)
        #expect(ZoomDismissRelease.outcome(progress: 0.1, velocity: 0) == .cancel)
        #expect(ZoomDismissRelease.outcome(progress: 0.2, velocity: 0) == .finish)
        // A flick down from a short drag projects past the threshold: 0.05 + 2 × 0.099.
        #expect(ZoomDismissRelease.outcome(progress: 0.05, velocity: 2) == .finish)
        // Moving back up from past it: projected under it.
        #expect(ZoomDismissRelease.outcome(progress: 0.3, velocity: -2) == .cancel)
    }

    @Test func scenePlanPansDownTheContainer() throws {
        let engine = try Self.engine()
        #expect(engine.configuration.pan.axis == .y)
        #expect(engine.configuration.pan.direction == .positive)
        #expect(engine.configuration.distance == 844)
        #expect(engine.configuration.completionCurve == .spring)
    }

    /// Dragged down and right: the card's centre is the finger's translation from home, and its
    /// size the scale of the downward progress.
    @Test func cardFollowsTheFingerInTwoDimensions() throws {
        var engine = try Self.engine()
        var g = Gesture(at: Point(x: 200, y: 300))
        g.move(dx: 120, dy: 211, over: 0.4, steps: 24)
        _ = try engine.apply(g.events)
        #expect(engine.phase == .tracking)
        let card = try Self.card(engine)
        #expect(abs(card.center.x - (195 + 120)) < 1e-6)
        #expect(abs(card.center.y - (422 + 211)) < 1e-6)
        let scale = ZoomAnimator.trackingScale(engine.progress)
        #expect(abs(engine.progress - 211.0 / 844) < 1e-9)
        #expect(abs(card.bounds.width - 390 * scale) < 1e-6)
        #expect(card.bounds.width < 390)
    }

    /// Released past the threshold: it shrinks into the source; released early: it springs home.
    @Test func releaseFinishesIntoTheSourceOrSpringsHome() throws {
        var finishing = try Self.engine()
        var far = Gesture(at: Point(x: 200, y: 300))
        far.move(dx: 120, dy: 300, over: 0.5, steps: 30)
        far.hold(0.3)
        far.move(dx: 0, dy: 0.5, over: 0.1, steps: 6)
        far.up()
        let events = try finishing.apply(far.events)
        #expect(events.contains { if case .released(let d) = $0 { d.outcome == .finish } else { false } })
        let frames = finishing.runCompletion(from: far.time)
        #expect(finishing.phase == .finished)
        // Just before the end the card is (nearly) the source's rect.
        let last = try #require(frames.dropLast().last?.layers.first { $0.id == .from })
        #expect(abs(last.center.x - Self.source.center.x) < 4)
        #expect(abs(last.bounds.width - Self.source.width) < 8)

        var cancelling = try Self.engine()
        var near = Gesture(at: Point(x: 200, y: 300))
        near.move(dx: 30, dy: 60, over: 0.5, steps: 30)
        near.hold(0.3)
        near.move(dx: 0, dy: 0.5, over: 0.1, steps: 6)
        near.up()
        let early = try cancelling.apply(near.events)
        #expect(early.contains { if case .released(let d) = $0 { d.outcome == .cancel } else { false } })
        _ = cancelling.runCompletion(from: near.time)
        #expect(cancelling.phase == .cancelled)
    }

    /// A touch during the settle catches the card where it is: the first frame of the grab shows
    /// the card where the settle had it, and the drag goes on from there.
    @Test func aTouchCatchesTheSettle() throws {
        var engine = try Self.engine()
        var g = Gesture(at: Point(x: 200, y: 300))
        g.move(dx: 100, dy: 250, over: 0.4, steps: 24)
        g.hold(0.2)
        g.move(dx: 0, dy: 0.5, over: 0.1, steps: 6)
        g.up()
        _ = try engine.apply(g.events)
        #expect(engine.phase == .finishing)
        _ = engine.advance(to: g.time + 0.1)
        let before = try Self.card(engine)
        let grab = PointerEvent(.down, x: 250, y: 500, time: g.time + 0.1, pointerID: 1)
        let events = try engine.handle(grab).events
        #expect(events.contains { if case .began(_, grabbed: true) = $0 { true } else { false } })
        let caught = try Self.card(engine)
        #expect(abs(caught.center.x - before.center.x) < 1e-6 && abs(caught.bounds.width - before.bounds.width) < 1e-6)
        _ = try engine.handle(PointerEvent(.move, x: 210, y: 540, time: g.time + 0.15, pointerID: 1))
        let dragged = try Self.card(engine)
        #expect(abs(dragged.center.x - (caught.center.x - 40)) < 1e-6)
        #expect(abs(dragged.center.y - (caught.center.y + 40)) < 1e-6)
    }

    /// Every other kind ignores the drag: a push dismissal's layers are its timeline's.
    @Test func otherKindsAreOneDimensional() throws {
        var c = TransitionConfiguration(kind: .push)
        c.operation = .dismiss
        var engine = try InteractiveTransition(configuration: c)
        _ = try engine.apply(Gesture.pan(dx: 120, dy: 80, over: 0.3).events.dropLast())
        #expect(engine.zoomDrag == nil)
        #expect(engine.frame().layers == engine.animator.layers(at: min(engine.timelineTime, c.duration.nextDown)))
    }
}
