import TransitionCore

/// iOS 26's content swipe: a pan anywhere in a navigation controller's content that pops
/// (docs/SCENE.md, "The content-swipe pop (iOS 26)"). While it decides, its pointer is held
/// (acknowledged, in `heldPointers`, so the session is not at rest); when it begins, the engine
/// is handed the held down and the move that decided, so the pop's pan starts from the down
/// point; when it fails, a sheet's dismissal armed beside the pop takes the pan the same way,
/// else the pointer stays held until it lifts. SessionContentPopTests.
extension SessionCore {
    /// The content swipe's part of a pointer event; nil when it has none (the caller goes on).
    mutating func contentSwipe(_ message: PointerMessage, receivedAt received: Double, arrivedAt arrived: Double?)
        throws(WireError) -> SessionReaction?
    {
        if let down = sceneBox!.session.contentSwipe, down.message.pointerID == message.pointerID {
            return try decide(message, down: down, receivedAt: received, arrivedAt: arrived)
        }
        guard message.phase == .down, !engine.isPointerDown, engine.phase.isAtRest, heldPointers.isEmpty else {
            return nil
        }
        switch sceneBox!.session.contentPopStart(message) {
        case .unavailable:
            return nil
        case .scrolls, .appPan:
            // The content view's own pan takes the touch: nothing of the scene's moves.
            return try hold(message, receivedAt: received, arrivedAt: arrived)
        case .decides:
            let reaction = try hold(message, receivedAt: received, arrivedAt: arrived)
            let down = SceneSession.ContentSwipeDown(message: message, received: received, arrived: arrived)
            updateScene { $0.contentSwipe = down }
            return reaction
        }
    }

    /// An event of the pointer the content swipe holds.
    private mutating func decide(
        _ message: PointerMessage, down: SceneSession.ContentSwipeDown, receivedAt received: Double,
        arrivedAt arrived: Double?
    ) throws(WireError) -> SessionReaction {
        guard message.phase == .move else {
            // A second down of it is refused by `hold`; a lift or cancel ends the swipe (a tap).
            let reaction = try hold(message, receivedAt: received, arrivedAt: arrived)
            if message.phase != .down { updateScene { $0.contentSwipe = nil } }
            return reaction
        }
        switch ContentSwipeHysteresis.verdict(translation: down.translation(to: message)) {
        case .possible:
            return try hold(message, receivedAt: received, arrivedAt: arrived)
        case .began:
            return try handOver(message, down: down, receivedAt: received, arrivedAt: arrived, toDismissal: false)
        case .failed:
            return try handOver(message, down: down, receivedAt: received, arrivedAt: arrived, toDismissal: true)
        }
    }

    /// The swipe decided: the pop it armed (`toDismissal` false), or the sheet's dismissal
    /// beside it, gets a fresh engine fed the held down and `message`; with no dismissal to take
    /// a failed swipe's pan, the pointer stays held until it lifts. Worked on a copy, so a
    /// refusal changes nothing.
    private mutating func handOver(
        _ message: PointerMessage, down: SceneSession.ContentSwipeDown, receivedAt received: Double,
        arrivedAt arrived: Double?, toDismissal: Bool
    ) throws(WireError) -> SessionReaction {
        var next = self
        next.updateScene { $0.contentSwipe = nil }
        // What was armed may have changed under the held pointer (a device turned): the pop
        // must still be the scene's own gesture, nothing starts while the interface turns, and
        // an engine another finger took meanwhile (an edge swipe) keeps it.
        let session = next.sceneBox!.session
        let popArmed = session.armed.map { $0.isDefault && $0.plan.action == .pop } ?? false
        let takes =
            session.rotation == nil && popArmed && next.engine.phase.isAtRest && !next.engine.isPointerDown
            && (toDismissal ? next.updateScene { $0.armDismissalInsteadOfPop() } : true)
        guard takes else {
            let reaction = try next.hold(message, receivedAt: received, arrivedAt: arrived)
            self = next
            return reaction
        }
        next.heldPointers.remove(down.message.pointerID)
        next.resetEngine()
        next.clockOffset = nil
        var reaction = try next.drive(down.message, receivedAt: down.received, arrivedAt: down.arrived)
        let moved = try next.drive(message, receivedAt: received, arrivedAt: arrived)
        reaction.frame = reaction.frame || moved.frame
        reaction.events += moved.events
        reaction.lifecycle += moved.lifecycle
        reaction.sceneChanged = reaction.sceneChanged || moved.sceneChanged
        self = next
        return counted(reaction)
    }
}
