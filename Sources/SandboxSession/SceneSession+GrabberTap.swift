import TransitionCore

/// A tap on a sheet's grabber: the detent before the selected one becomes the selected one (the
/// largest after the smallest), the card settling into it on the detents' spring, and the
/// delegate hears `sheetPresentationControllerDidChangeSelectedDetentIdentifier`.
///
/// Source: the decompile of iOS 26.1's UIKitCore (github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore):
/// `-[UISheetPresentationController _dropShadowViewGrabberDidTriggerPrimaryAction:]` by
/// `-[_UISheetLayoutInfo _grabberAction]` and `_indexOfActiveDetentForTappingGrabber`
/// ((n + current − 1) mod n over the active detents, which Apple asks to be ordered "from
/// smallest to largest"); the grabber is a control acting on a touch up inside, taking touches
/// in 44 × 44 pt around itself (a third-party reading of its touch insets, the Charon port).
/// A tap is a down and an up within the pan's slop while the sheet's drag is still undecided
/// (no pan began). SessionSheetPassthroughTests.
extension SceneSession {
    /// The grabber's touch area: this many points each side of its centre (third-party, Charon).
    static let grabberTouchHalfSide = 22.0

    /// The tap's action when the drag `drag` lifts at `up`: its down in the top-most sheet's
    /// grabber area and the lift within `slop` of it (the drag keeps only the finger's starting
    /// height once it tracks, so the sideways test is taken at the lift); nil, nothing changed,
    /// otherwise. The card settles from where the drag holds it; `up.time` (the engine's clock)
    /// starts the settle.
    mutating func tapGrabber(_ drag: SheetDetentDrag, up: PointerEvent, slop: Double) -> [LifecycleRecord]? {
        let down: Point
        switch drag {
        case .undecided(_, let event): down = event.position
        case .tracking(let t): down = Point(x: up.position.x, y: t.fingerStart)
        case .settling: return nil
        }
        guard let state = scene.sheetDetents, state.configuration.prefersGrabberVisible, state.detents.count >= 2,
            let grabber = scene.visibleLayers.first(where: {
                $0.role == .grabber && $0.controller == state.controller
            }),
            let current = state.detents.firstIndex(where: { $0.id == state.selected })
        else { return nil }
        let (dx, dy) = (up.position.x - down.x, up.position.y - down.y)
        guard abs(down.x - grabber.frame.midX) <= Self.grabberTouchHalfSide,
            abs(down.y - grabber.frame.midY) <= Self.grabberTouchHalfSide, (dx * dx + dy * dy).squareRoot() < slop
        else { return nil }
        let target = state.detents[(state.detents.count + current - 1) % state.detents.count].id
        let pictures = scene.detentPictures().map(\.layers)
        try? scene.selectDetent(target)  // a detent of the top-most sheet: cannot fail
        refreshArmed()
        sheetDrag = nil
        if let to = scene.sheetDetents?.top, abs(to - drag.top) >= 0.5 {
            let sheet = SheetDetentDrag.Sheet(
                state: state, pictures: pictures, dimension: scene.windowBounds.height, safeAreaTop: sheetSafeAreaTop)
            sheetDrag = .settle(sheet: sheet, from: drag.top, to: to, at: up.time)
        }
        group += 1
        let event = LifecycleEvent.delegate(
            state.controller, .sheetPresentationControllerDidChangeSelectedDetentIdentifier)
        return [LifecycleRecord(group: group, action: Self.detentAction, event: event)]
    }
}
