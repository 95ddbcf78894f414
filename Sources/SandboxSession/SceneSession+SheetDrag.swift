import TransitionCore

/// The top-most sheet's pan between its detents (`SheetDetentDrag`): when a down starts one,
/// and what its release changes in the scene. docs/SCENE.md "Sheet detents";
/// SessionSheetDetentTests.
extension SceneSession {
    /// What a down on the screen means for the top-most sheet's detents.
    enum DetentDown: Equatable {
        /// Not the sheet's: the engine's rules as before (a single-detent sheet, an app's
        /// armed request, a down off the card, a scene busy with a transition or a turn).
        case none
        /// A vertical scroll view under the finger, below the largest detent, with
        /// `prefersScrollingExpandsWhenScrolledToEdge` false: the content scrolls, the sheet stays.
        case scrolls
        case drag(SheetDetentDrag)
    }

    /// The lifecycle action of a detent change's lines (`scene-state` and the page group them).
    static let detentAction = "sheet"

    /// What `event` (a down) starts. With the sheet's own gesture armed (the scene's default
    /// dismissal, resisting or not) and two or more detents, a down on the card drags it,
    /// also one that catches a settle mid-way.
    func detentDown(_ event: PointerEvent) -> DetentDown {
        guard rotation == nil, flight == nil, let armed, armed.isDefault, armed.plan.action == .dismiss,
            let state = scene.sheetDetents, state.detents.count >= 2
        else { return .none }
        let top = sheetDrag?.top ?? state.top
        let point = event.position
        guard point.y >= top, point.y <= state.bottom, point.x >= armed.plan.container.minX,
            point.x <= armed.plan.container.maxX
        else { return .none }
        if sheetDrag == nil, !state.isAtLargest, !state.configuration.prefersScrollingExpandsWhenScrolledToEdge,
            scrollView(under: point, sheet: state.controller)
        {
            return .scrolls
        }
        let sheet = SheetDetentDrag.Sheet(
            state: state, pictures: scene.detentPictures().map(\.layers), dimension: scene.windowBounds.height,
            safeAreaTop: sheetSafeAreaTop)
        return .drag(SheetDetentDrag.begin(event, sheet: sheet, top: top, detent: state.selected))
    }

    /// Whether a vertical scroll view of the sheet (its own views, or its visible child's) lies
    /// under `point` (device coordinates; a view's frame is in its controller's).
    func scrollView(under point: Point, sheet id: String) -> Bool {
        guard let sheet = scene.controller(id) else { return false }
        let owners = [sheet] + (sheet.stack?.last.map { [$0] } ?? [])
        for owner in owners {
            guard let origin = scene.frame(of: owner.id)?.origin else { continue }
            for view in owner.views where view.kind == .verticalScroll {
                let frame = Rect(
                    x: origin.x + view.frame.minX, y: origin.y + view.frame.minY, width: view.frame.width,
                    height: view.frame.height)
                if frame.contains(point) { return true }
            }
        }
        return false
    }

    /// The drag's finger lifted: the scene rests at the chosen detent at once (the card then
    /// settles into it on its spring), and a change the user made is told to the delegate.
    mutating func releaseDetentDrag(_ event: PointerEvent, cancelled: Bool) -> [LifecycleRecord] {
        guard var drag = sheetDrag else { return [] }
        let start: String? =
            switch drag {
            case .undecided(let t, _), .tracking(let t): t.startDetent
            case .settling: nil
            }
        let target = drag.release(event, cancelled: cancelled)
        sheetDrag = drag
        try? scene.selectDetent(target)  // a detent of the top-most sheet: cannot fail
        refreshArmed()  // the swipe-down's card is the new detent's
        guard let start, start != target else { return [] }
        group += 1
        let event = LifecycleEvent.delegate(
            drag.sheet.controller, .sheetPresentationControllerDidChangeSelectedDetentIdentifier)
        return [LifecycleRecord(group: group, action: Self.detentAction, event: event)]
    }

    /// The window's top safe-area inset in its orientation (the stretch above the largest
    /// detent ends there).
    var sheetSafeAreaTop: Double { scene.device.safeAreaTop(in: scene.interfaceOrientation) }

    /// The drag passed below the smallest detent: the scene rests there (the swipe-down's card
    /// is the smallest detent's) and the drag ends, the engine's dismissal taking the pointer.
    /// No `sheetPresentationControllerDidChangeSelectedDetentIdentifier` (*chosen*: the
    /// dismissal, not a detent, is where the drag went). SessionSheetDetentTests.
    mutating func enterDismissal() {
        guard let sheet = sheetDrag?.sheet, let smallest = sheet.ids.first else { return }
        try? scene.selectDetent(smallest)  // a detent of the top-most sheet: cannot fail
        refreshArmed()
        sheetDrag = nil
    }

    /// A settle's tick; the drag is over once the card rests.
    mutating func advanceDetentSettle(to now: Double) {
        guard var drag = sheetDrag else { return }
        sheetDrag = drag.advance(to: now) ? drag : nil
    }

    /// `scene-state`'s sheets: the one the drag moves says so (a replay's `rest` waits for it).
    var sheetReport: [SheetDetentState] {
        scene.sheetDetentStates.map { state in
            var state = state
            state.moving = sheetDrag?.sheet.controller == state.controller
            return state
        }
    }

    /// The still views a frame draws: a sheet between its detents is its drag's picture
    /// (`SheetDetentDrag.layers`, the card included: the animator draws nothing then); at rest,
    /// the picture's, with the grabber kept on the armed dismissal's card (it moves with the
    /// card only once the dismissal is in flight). Allocates nothing more for a scene without
    /// a grabber.
    func stillLayers(_ picture: ScenePicture, progress: Double) -> [SceneLayer] {
        if let sheetDrag { return sheetDrag.layers }
        var layers = picture.sceneLayers(moving: moving, progress: progress)
        if flight == nil, let moving, picture.before.contains(where: { $0.role == .grabber }) {
            layers += picture.before.filter { $0.role == .grabber && $0.controller == moving }
        }
        return layers
    }

    /// Whether a settle is running (the display link must tick).
    var isSettlingDetent: Bool {
        if case .settling = sheetDrag { return true }
        return false
    }
}

extension SceneSession {
    /// The app sets the top-most sheet's selected detent (`sheet`): at once, or settling on the
    /// release's spring from where the card rests (`animateChanges`). No delegate call (Apple:
    /// `sheetPresentationControllerDidChangeSelectedDetentIdentifier` is not called for
    /// programmatic changes). Errors: `invalid-scene` (not the top-most sheet with detents, no
    /// such detent); nothing changes on one.
    mutating func selectDetent(_ request: SheetRequest, at now: Double) throws(SceneError) {
        guard let state = scene.sheetDetents, state.controller == request.controller else {
            throw .invalidScene(
                "\"\(request.controller)\" is not the top-most sheet with detents "
                    + "(a phone page or form sheet with 'sheet')")
        }
        let pictures = scene.detentPictures().map(\.layers)
        try scene.selectDetent(request.selectedDetent)
        refreshArmed()
        guard let to = scene.sheetDetents?.top, request.animated, abs(to - state.top) >= 0.5 else { return }
        let sheet = SheetDetentDrag.Sheet(
            state: state, pictures: pictures, dimension: scene.windowBounds.height, safeAreaTop: sheetSafeAreaTop)
        sheetDrag = .settle(sheet: sheet, from: state.top, to: to, at: now)
    }
}
