/// The scene: a device, a window with a root controller, navigation stacks, modal
/// presentations, the appearance callbacks and the transition in flight. A pure value: every
/// operation is a `mutating` method returning what the transition engine must animate
/// (`SceneTransitionPlan`) or throwing a `SceneError` that leaves the scene unchanged.
///
/// An animated operation starts a transition: the plan's `startEvents` are sent, the scene is
/// `busy` until `end(completed:)`, which commits the new hierarchy (finish) or keeps the old one
/// (an interactive cancel). A non-animated operation starts and ends at once (its plan carries
/// both `startEvents` and `endEvents`).
public struct Scene: Equatable, Sendable {
    /// A started transition: its plan, the hierarchy a finish commits, and who disappears and
    /// appears (the end callbacks are derived from them).
    struct Pending: Equatable, Sendable {
        var plan: SceneTransitionPlan
        var committed: SceneHierarchy
        var disappearing: [String]
        var appearing: [String]
    }

    public let options: SceneOptions
    var hierarchy: SceneHierarchy {
        didSet { picture = Self.compose(hierarchy, pending) }
    }
    /// The controllers whose `viewDidLoad` has run (a view loads once per instance).
    public private(set) var loaded: Set<String>
    /// Every controller instance the scene has seen, by id, with its latest stack: `present`
    /// and `push` by id take them from here.
    var library: [String: SceneController]
    var pending: Pending? {
        didSet { picture = Self.compose(hierarchy, pending) }
    }
    /// The pictures before and after the transition in flight (Scene+Picture.swift), composed
    /// whenever the hierarchy or the transition changes, so a frame reads them for nothing
    /// (composing walks the whole hierarchy: a still scene of 32 controllers redid it every
    /// frame). Equal to composing them anew (`ScenePictureCacheTests`).
    public private(set) var picture: ScenePicture
    /// How the device is held (Scene+Orientation.swift); the interface orientation is the hierarchy's.
    public internal(set) var deviceOrientation: DeviceOrientation = .portrait
    /// The orientations an iOS 16 geometry request asked for, until the device turns (`requestGeometryUpdate`).
    public internal(set) var requestedOrientations: OrientationMask?

    /// A scene at rest with `root` in the window (its visible views loaded and appeared).
    public init(device: SceneDevice = .phone, root: SceneController, options: SceneOptions = SceneOptions())
        throws(SceneError)
    {
        try root.validate()
        if root.sheet != nil { throw .invalidScene("'sheet' is for presented page and form sheets, not the root") }
        self.options = options
        hierarchy = SceneHierarchy(device: device, root: root)
        loaded = Set(hierarchy.appeared())
        library = [:]
        pending = nil
        picture = Self.compose(hierarchy, nil)
        remember(root)
        try settleLaunchOrientation()
        picture = Self.compose(hierarchy, pending)
    }

    private static func compose(_ hierarchy: SceneHierarchy, _ pending: Pending?) -> ScenePicture {
        let before = hierarchy.composition().layers.withViews(hierarchy)
        let after = pending.map { $0.committed.composition().layers.withViews($0.committed) }
        return ScenePicture(
            before: before, after: after, covered: coveredSide(hierarchy, pending, before: before, after: after))
    }

    /// The scene and the callbacks of the app's launch: `viewDidLoad`, `viewWillAppear(false)`,
    /// `viewDidAppear(false)` for each visible controller (a navigation controller before its child).
    public static func launch(
        device: SceneDevice = .phone, root: SceneController, options: SceneOptions = SceneOptions()
    ) throws(SceneError) -> (scene: Scene, events: [LifecycleEvent]) {
        let scene = try Scene(device: device, root: root, options: options)
        let visible = scene.hierarchy.appeared()
        let events =
            visible.map(LifecycleEvent.load)
            + visible.map { LifecycleEvent(controller: $0, callback: .viewWillAppear, animated: false) }
            + visible.map { LifecycleEvent(controller: $0, callback: .viewDidAppear, animated: false) }
        return (scene, events)
    }

    // MARK: - Reading

    public var device: SceneDevice { hierarchy.device }
    /// The window's root with its current stacks (committed state).
    public var root: SceneController { hierarchy.root }
    /// The committed presentations, in the order they were made.
    public var presentations: [ScenePresentation] { hierarchy.presentations }
    /// How many controller instances the scene has seen over its life (each one described in
    /// full is new); a bound on everything the scene stores.
    public var instanceCount: Int { library.count }
    /// Named views of every instance the scene has seen (`SceneView`), the bound's measure.
    public var viewCount: Int { library.values.reduce(0) { $0 + $1.views.count } }
    /// The transition in flight, if any.
    public var inFlight: SceneTransitionPlan? { pending?.plan }
    /// The default `from` of `present` and target of `dismiss`.
    public var topMost: String { hierarchy.topMost }

    public func controller(_ id: String) -> SceneController? { hierarchy.controller(id) }
    public func contains(_ id: String) -> Bool { hierarchy.contains(id) }
    /// The controller's view frame at rest, in device coordinates (nil for an unknown id).
    public func frame(of id: String) -> Rect? { hierarchy.contains(id) ? hierarchy.frame(of: id) : nil }

    /// The views on screen at rest in the committed state, bottom to top. During a transition
    /// this is the picture before it; the animators draw the `from`/`to` views.
    public var visibleLayers: [SceneLayer] { hierarchy.composition().layers }
    /// The picture a finish of the transition in flight rests on.
    public var pendingLayers: [SceneLayer]? { pending?.committed.composition().layers }
    /// The controllers whose views are in the window and have appeared, bottom to top.
    public var visibleControllers: [String] { hierarchy.appeared() }

    public var state: SceneState {
        let navigationStacks = hierarchy.trees.flatMap(Self.stacks)
        var state = SceneState(
            device: device, root: root,
            presentations: presentations.map {
                SceneState.Presentation(
                    presenter: $0.presenter, presented: $0.presented.id, source: $0.source, style: $0.style,
                    transition: $0.transition, sourceView: hierarchy.zoomSources[$0.presented.id])
            },
            navigationStacks: navigationStacks, topMost: topMost, appeared: visibleControllers,
            inFlight: pending?.plan.action)
        state.orientation = orientationState
        state.ios = options.ios
        state.contentPop = options.contentPop
        return state
    }

    private static func stacks(_ tree: SceneController) -> [SceneState.NavigationStack] {
        guard let stack = tree.stack else { return [] }
        return [SceneState.NavigationStack(navigation: tree.id, stack: stack.map(\.id))] + stack.flatMap(stacks)
    }

    // MARK: - Shared steps

    mutating func remember(_ tree: SceneController) {
        library[tree.id] = tree
        for child in tree.stack ?? [] { remember(child) }
    }

    /// The controller a reference names, checked: a new instance must be valid and use no id
    /// in the hierarchy; an id must be known and not in the hierarchy. `source`: the controller
    /// `present` is called on (nil for a push).
    func resolve(_ reference: SceneControllerReference, source: String? = nil) throws(SceneError) -> SceneController {
        let pushing = source == nil
        let controller: SceneController
        switch reference {
        case .id(let id):
            if hierarchy.contains(id) { throw doubled(id, source: source) }
            guard let known = library[id] else { throw .unknownController(id) }
            // A navigation controller comes back with the stack it had when last seen; a child
            // of that stack may be elsewhere in the hierarchy by now (pushed onto another
            // stack): ids stay unique, so that is a clash like any other.
            if let clash = known.allIDs.first(where: hierarchy.contains) { throw doubled(clash, source: source) }
            controller = known
        case .controller(let given):
            try given.validate()
            if let clash = given.allIDs.first(where: hierarchy.contains) { throw doubled(clash, source: source) }
            controller = given
        }
        if pushing && controller.isNavigation {
            throw .invalidScene(
                "cannot push the navigation controller \"\(controller.id)\" (UIKit: pushing a navigation controller is not supported)"
            )
        }
        return controller
    }

    /// UIKit's NSInvalidArgumentException for `id`, already in the hierarchy: presented on
    /// itself, in a stack, already presented, the root, or pushed again (SceneErrorTextTests).
    private func doubled(_ id: String, source: String?) -> SceneError {
        let reason: SceneError.InHierarchy
        if source == nil {
            reason = .pushed
        } else if id == source {
            reason = .itself
        } else if let parent = hierarchy.parent(of: id) {
            reason = .parent(parent)
        } else if let index = hierarchy.presentationIndex(ofPresented: id) {
            reason = .presentedBy(hierarchy.presentations[index].presenter)
        } else {
            reason = .active
        }
        return .alreadyPresented(id, reason, ios: options.ios)
    }

    /// Starts (or, not animated, completes) a transition to `committed`: the start callbacks
    /// from the difference between what has appeared before and after.
    mutating func begin(
        _ plan: SceneTransitionPlan, committing committed: SceneHierarchy, introducing new: SceneController? = nil
    ) -> SceneTransitionPlan {
        if let new {
            // A controller described in full is a new instance: it loads its view afresh.
            loaded.subtract(new.allIDs)
            remember(new)
        }
        let before = hierarchy.appearedGroups()
        let after = committed.appearedGroups()
        let beforeIDs = Set(before.flatMap { $0 })
        let afterIDs = Set(after.flatMap { $0 })
        // Disappearing: the top group first; appearing: the bottom group first.
        let disappearing = before.reversed().flatMap { $0 }.filter { !afterIDs.contains($0) }
        let appearing = after.flatMap { $0 }.filter { !beforeIDs.contains($0) }
        let animated = plan.animated
        var events = appearing.filter { !loaded.contains($0) }.map(LifecycleEvent.load)
        loaded.formUnion(appearing)
        events += disappearing.map { LifecycleEvent(controller: $0, callback: .viewWillDisappear, animated: animated) }
        events += appearing.map { LifecycleEvent(controller: $0, callback: .viewWillAppear, animated: animated) }
        var plan = plan
        plan.startEvents = events
        pending = Pending(plan: plan, committed: committed, disappearing: disappearing, appearing: appearing)
        if !animated { plan.endEvents = end(completed: true) }
        return plan
    }

    /// Ends the transition in flight. Finished (`completed`): `completeTransition(true)`, then
    /// `viewDidDisappear` for who disappears and `viewDidAppear` for who appears (push, pop) or
    /// the appear side first (present, dismiss), and the new hierarchy is committed. Cancelled (an interactive cancel): `completeTransition(false)`,
    /// then UIKit's reversal — who was to appear gets `viewWillDisappear` and
    /// `viewDidDisappear`, who was to disappear `viewWillAppear` and `viewDidAppear` — and the
    /// hierarchy stays as it was. Nothing in flight: no events, no change.
    public mutating func end(completed: Bool) -> [LifecycleEvent] {
        guard let pending else { return [] }
        self.pending = nil
        let animated = pending.plan.animated
        let plan = pending.plan
        let subject = plan.operation == .present ? plan.to : plan.from
        var events = [LifecycleEvent.complete(subject, completed, animated: animated)]
        func log(_ ids: [String], _ callback: LifecycleCallback) {
            events += ids.map { LifecycleEvent(controller: $0, callback: callback, animated: animated) }
        }
        if completed {
            // Navigation: the old one's viewDidDisappear, then the new one's viewDidAppear.
            // Modal (present, dismiss): the other way round (docs/ENGINE.md).
            if plan.action == .present || plan.action == .dismiss {
                log(pending.appearing, .viewDidAppear)
                log(pending.disappearing, .viewDidDisappear)
            } else {
                log(pending.disappearing, .viewDidDisappear)
                log(pending.appearing, .viewDidAppear)
            }
            for tree in hierarchy.trees { remember(tree) }
            hierarchy = pending.committed
            for tree in hierarchy.trees { remember(tree) }
        } else {
            log(pending.appearing, .viewWillDisappear)
            log(pending.appearing, .viewDidDisappear)
            log(pending.disappearing, .viewWillAppear)
            log(pending.disappearing, .viewDidAppear)
        }
        return events
    }
}
