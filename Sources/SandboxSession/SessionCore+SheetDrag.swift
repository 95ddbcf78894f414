import TransitionCore

/// Pointers on a sheet with detents: the scene's detent drag takes them before the engine
/// (SceneSession+SheetDrag.swift), and hands the engine its swipe-down when a drag that began
/// at the smallest detent first moves down, or a drag passes below the smallest detent.
/// SessionSheetDetentTests.
extension SessionCore {
    /// What the detent drag made of a pointer event.
    enum DetentPointer: Equatable {
        /// Not the drag's: the engine's path as before.
        case notSheet
        /// Acknowledged, kept off everything until it lifts (the content scrolls, or a second
        /// finger while the drag tracks).
        case hold
        case moved(SessionReaction)
        /// The first move went down at the smallest detent, or the card passed below it: the
        /// sheet's swipe-down dismissal.
        /// The engine gets this down first, then the move.
        case handOver(PointerEvent)
    }

    /// `event`: `message` on the engine's clock.
    mutating func detentPointer(_ event: PointerEvent, message: PointerMessage) -> DetentPointer {
        guard hasScene, !engine.isPointerDown, engine.phase.isAtRest else { return .notSheet }
        let drag = sceneBox!.session.sheetDrag
        if let pointer = drag?.pointerID, pointer != message.pointerID {
            return message.phase == .down ? .hold : .notSheet
        }
        switch message.phase {
        case .down:
            switch sceneBox!.session.detentDown(event) {
            case .none: return .notSheet
            case .scrolls: return .hold
            case .drag(let started):
                updateScene { $0.sheetDrag = started }
                return .moved(SessionReaction(frame: true))
            }
        case .move:
            guard let drag, drag.pointerID != nil else { return .notSheet }
            if case .undecided(let tracking, let down) = drag {
                let dy = event.position.y - tracking.fingerStart
                if dy > 0 {
                    updateScene { $0.sheetDrag = nil }
                    return .handOver(down)
                }
                if dy == 0 { return .moved(SessionReaction(frame: false)) }
                updateScene { $0.sheetDrag?.decideUp(event) }
            } else if let down = drag.dismissalDown(event) {
                // Below the smallest detent: the same drag goes on as the swipe-down dismissal.
                updateScene { $0.enterDismissal() }
                resetEngine()
                return .handOver(down)
            } else {
                updateScene { $0.sheetDrag?.move(event) }
            }
            return .moved(SessionReaction(frame: true))
        case .up, .cancel:
            guard let drag, drag.pointerID != nil else { return .notSheet }
            // A lift within the slop on the grabber is its tap (SceneSession.tapGrabber).
            let slop = engine.configuration.pan.slop
            if message.phase == .up, let records = updateScene({ $0.tapGrabber(drag, up: event, slop: slop) }) {
                var reaction = SessionReaction(frame: true, sceneChanged: true)
                reaction.lifecycle = records
                resetEngine()  // the armed swipe-down's container changed with the detent
                return .moved(reaction)
            }
            if case .undecided = drag {
                // A tap on the card: nothing moved, nothing settles.
                updateScene { $0.sheetDrag = nil }
                return .moved(SessionReaction(frame: true))
            }
            var reaction = SessionReaction(frame: true, sceneChanged: true)
            reaction.lifecycle = updateScene { $0.releaseDetentDrag(event, cancelled: message.phase == .cancel) }
            resetEngine()  // the armed swipe-down's container changed with the detent
            return .moved(reaction)
        }
    }

    /// The interface turned: a detent drag's pictures were laid out for the old bounds, so it
    /// ends where the scene rests; a finger still down is held until it lifts, like the touches a
    /// rotation cancels (SessionSheetDetentTests.aTurnEndsTheDragAndHoldsTheFinger).
    mutating func endDetentDrag() {
        guard let drag = sceneBox?.session.sheetDrag else { return }
        if let pointer = drag.pointerID { heldPointers.insert(pointer) }
        updateScene { $0.sheetDrag = nil }
    }

    /// A down at rest beside a sheet with detents: its presenter's gesture or the sheet's is armed
    /// (SceneSession.armForDownBesideSheet), the engine configured afresh when that changed.
    mutating func armForDownBesideSheet(_ message: PointerMessage) {
        guard message.phase == .down, hasScene, !engine.isPointerDown, engine.phase.isAtRest, heldPointers.isEmpty,
            updateScene({ $0.armForDownBesideSheet(at: Point(x: message.x, y: message.y)) })
        else { return }
        resetEngine()
        clockOffset = nil
    }

    /// Whether the sheet's drag or settle is running (scene operations wait for it).
    var isMovingDetent: Bool { sceneBox?.session.sheetDrag != nil }

    /// A settle's tick: a frame while the card moves, and the last one when it rests.
    mutating func tickDetentSettle(at now: Double, _ reaction: inout SessionReaction) {
        guard sceneBox?.session.isSettlingDetent == true else { return }
        updateScene { $0.advanceDetentSettle(to: now) }
        reaction.frame = true
        // At rest: `scene-state` says the sheet no longer moves.
        if sceneBox?.session.sheetDrag == nil { reaction.sceneChanged = true }
    }
}

extension SessionCore {
    /// `sheet`: the app changes the top-most sheet's detent (SceneSession.selectDetent). Errors:
    /// `no-scene`, `busy`, `invalid-scene`; nothing changes on one.
    mutating func selectDetent(_ request: SheetRequest, at now: Double) throws(WireError) -> SessionReaction {
        var next = try currentScene()
        try checkAtRest("change the sheet's detent")
        try Self.sceneStep { () throws(SceneError) in try next.selectDetent(request, at: now) }
        scene = next
        resetEngine()
        clockOffset = nil
        return counted(SessionReaction(frame: true, sceneChanged: true))
    }
}
