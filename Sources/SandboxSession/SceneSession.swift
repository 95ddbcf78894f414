import TransitionCore

/// One line of the lifecycle log as sent: the callback, and which scene transition (`group`,
/// `action`) it belongs to.
public struct LifecycleRecord: Equatable, Sendable {
    public var group: Int
    /// `launch`, `present`, `dismiss`, `push` or `pop`.
    public var action: String
    public var event: LifecycleEvent

    public init(group: Int, action: String, event: LifecycleEvent) {
        self.group = group
        self.action = action
        self.event = event
    }
}

/// What `scene-state` reports: the scene's summary, the session's choice of interruptibility,
/// and what the next pan drives.
public struct SceneReport: Equatable, Sendable {
    /// What the next pan drives.
    public struct Armed: Equatable, Sendable {
        public var action: SceneAction
        public var from: String
        public var to: String
        public var kind: TransitionKind
        public var edgeSwipe: Bool
        /// True for the gesture the scene offers by itself (dismiss or pop), false for a
        /// request's `interactive: true`.
        public var isDefault: Bool
    }

    public var state: SceneState
    public var interruptible: Bool
    public var armed: Armed?
    /// Every phone sheet with detents: where it rests (SceneSheet+Wire writes them).
    public var sheets: [SheetDetentState] = []
}

/// The scene of one session and how its transitions meet the engine: which operation is armed
/// for the next pan, which one is in flight (its lifecycle `group`), and the numbering of the
/// groups. Pure; `SessionCore` drives it and owns the engine.
struct SceneSession: Equatable {
    /// Controller instances a scene may see over its life: each is echoed in every
    /// `scene-state` and drawn in every frame, so a client cannot grow either without bound.
    /// 32: a scene of the reference has a handful; at 64 a scene measured 4.6 ms of
    /// CPU per operation and 46 KB frames (the cost grows with the square of the count).
    static let instanceLimit = 32
    /// How far from the container's left edge an edge-swipe pop may begin (pt), like
    /// `UIScreenEdgePanGestureRecognizer`'s band (UIKit does not publish its width).
    static let edgeBand = 24.0

    struct Armed: Equatable {
        var command: SceneCommand
        var plan: SceneTransitionPlan
        var isDefault: Bool
    }

    struct Flight: Equatable {
        var group: Int
        var command: SceneCommand
        var plan: SceneTransitionPlan
        var isDefault = false  // begun from the gesture the scene offers by itself
    }

    /// A rotation of the interface being played (the scene has committed it already).
    struct Rotation: Equatable {
        var plan: RotationPlan
        var start: Double
        var group: Int
        /// How far the turn is, as of the latest tick (0…1, eased): frames read it, so a
        /// frame is the same bytes whenever it is encoded.
        var fraction = 0.0
    }

    var scene: Scene
    let interruptible: Bool
    private(set) var rotation: Rotation?

    /// Whether the interface turns (no copy of the rotation: asked at every tick of every session).
    var isRotating: Bool { if case .some = rotation { true } else { false } }
    /// The latest lifecycle group (the launch is 1).
    var group = 1
    private(set) var armed: Armed?
    private(set) var flight: Flight?
    /// The pointer held while iOS 26's content swipe decides (SceneSession+ContentPop).
    var contentSwipe: ContentSwipeDown?
    /// A pan moving the top-most sheet between its detents (SceneSession+SheetDrag.swift).
    var sheetDrag: SheetDetentDrag?

    /// A scene at rest after its launch callbacks (group 1, `launch`), the default gesture armed
    /// (not busy with a rotation: `SessionCore` refuses scene operations while one plays).
    static func launch(_ setup: SceneSetup, root: SceneController) throws(SceneError) -> (
        SceneSession, [LifecycleRecord]
    ) {
        guard root.allIDs.count <= instanceLimit else {
            throw .invalidScene("a scene holds at most \(instanceLimit) controllers")
        }
        let (scene, events) = try Scene.launch(device: setup.device, root: root, options: setup.options)
        try checkViews(scene)
        var session = SceneSession(scene: scene, interruptible: setup.interruptible)
        session.armDefault()
        return (session, events.map { LifecycleRecord(group: 1, action: "launch", event: $0) })
    }

    private init(scene: Scene, interruptible: Bool) {
        self.scene = scene
        self.interruptible = interruptible
    }

    var report: SceneReport {
        SceneReport(
            state: scene.state, interruptible: interruptible,
            armed: armed.map {
                SceneReport.Armed(
                    action: $0.plan.action, from: $0.plan.from, to: $0.plan.to, kind: $0.plan.kind,
                    edgeSwipe: $0.plan.edgeSwipe, isDefault: $0.isDefault)
            }, sheets: sheetReport)
    }

    /// The plan the engine animates: in flight, else armed.
    var plan: SceneTransitionPlan? { flight?.plan ?? armed?.plan }

    /// The controller the animator moves (`to` for present and push, `from` for dismiss and pop).
    var moving: String? {
        guard let plan else { return nil }
        return plan.operation == .present ? plan.to : plan.from
    }

    // MARK: - Operations

    /// What `command` would do, checked on a copy: the plan, or the refusal.
    func trial(_ command: SceneCommand) throws(SceneError) -> SceneTransitionPlan {
        var copy = scene
        let plan = try command.perform(on: &copy)
        guard copy.instanceCount <= Self.instanceLimit else {
            throw .invalidScene("a scene holds at most \(Self.instanceLimit) controllers")
        }
        try Self.checkViews(copy)
        return plan
    }

    /// Arms `command` for the next pan (its plan from `trial`).
    mutating func arm(_ command: SceneCommand, plan: SceneTransitionPlan, isDefault: Bool = false) {
        armed = Armed(command: command, plan: plan, isDefault: isDefault)
    }

    /// Starts `command` now: its start callbacks (and, not animated, its end callbacks, after
    /// which the default gesture is armed). An animated one is then in flight until `end`.
    mutating func start(_ command: SceneCommand) throws(SceneError) -> [LifecycleRecord] {
        _ = try trial(command)  // the limit, before anything changes
        let plan = try command.perform(on: &scene)
        group += 1
        armed = nil
        var records = plan.startEvents.map { LifecycleRecord(group: group, action: plan.action.rawValue, event: $0) }
        if command.animated {
            flight = Flight(group: group, command: command, plan: plan)
        } else {
            records += plan.endEvents.map { LifecycleRecord(group: group, action: plan.action.rawValue, event: $0) }
            armDefault()
        }
        return records
    }

    /// The armed operation begins (its pan began): the same request on the scene, unchanged
    /// since it was armed, so it cannot be refused now; nil when nothing is armed.
    mutating func beginArmed() -> [LifecycleRecord]? {
        guard let armed, flight == nil else { return nil }
        if armed.plan.resists {
            // UIKit starts no transition: the delegate is told, the card rubber-bands back.
            group += 1
            let event = LifecycleEvent.delegate(armed.plan.from, .presentationControllerDidAttemptToDismiss)
            return [LifecycleRecord(group: group, action: SceneAction.dismiss.rawValue, event: event)]
        }
        guard var records = try? start(armed.command) else { return nil }
        flight?.isDefault = armed.isDefault
        if Self.isSheetSwipe(armed.plan, isDefault: armed.isDefault) {
            // The sheet's delegate is asked, then told, before the appearance callbacks.
            let asked: [LifecycleCallback] = [.presentationControllerShouldDismiss, .presentationControllerWillDismiss]
            records.insert(
                contentsOf: asked.map {
                    LifecycleRecord(
                        group: group, action: armed.plan.action.rawValue, event: .delegate(armed.plan.from, $0))
                }, at: 0)
        }
        return records
    }

    /// Whether `plan` is the sheet's own swipe-down (the default gesture's dismissal), whose
    /// delegate calls are logged; an app's `dismiss`, interactive or not, is programmatic and
    /// has none (Apple, `presentationControllerWillDismiss(_:)`: "This method is not called if
    /// the presentation is dismissed programmatically"). SessionSceneSheetDelegateTests.
    /// The zoom's drag down is not the sheet's: the zoom asks its own `interactiveDismissShouldBegin`
    /// (whether UIKit also tells the presentation controller's delegate is not known; chosen: no).
    static func isSheetSwipe(_ plan: SceneTransitionPlan, isDefault: Bool) -> Bool {
        isDefault && plan.action == .dismiss && !plan.resists && plan.kind != .zoom
    }

    /// The transition in flight ended: its end callbacks, and what the next pan drives — the
    /// same interactive request after a cancel (pan again to try again), else the default.
    mutating func end(completed: Bool, at now: Double) -> [LifecycleRecord] {
        guard let flight else { return [] }
        self.flight = nil
        var records = scene.end(completed: completed).map {
            LifecycleRecord(group: flight.group, action: flight.plan.action.rawValue, event: $0)
        }
        if completed, Self.isSheetSwipe(flight.plan, isDefault: flight.isDefault) {
            let did = LifecycleEvent.delegate(flight.plan.from, .presentationControllerDidDismiss)
            records.append(LifecycleRecord(group: flight.group, action: flight.plan.action.rawValue, event: did))
        }
        if !completed, flight.command.interactive, let plan = try? trial(flight.command.again) {
            arm(flight.command.again, plan: plan, isDefault: flight.isDefault)
        } else {
            armDefault()
        }
        // UIKit re-reads the masks against the device once a transition is over: a device
        // turned during it, or a landscape presentation dismissed over a root that allows the
        // device's portrait, turns the interface now (as `attemptRotationToDeviceOrientation`).
        if let turn = try? scene.attemptRotationToDeviceOrientation() {
            records += startRotation(turn, at: now)
        }
        return records
    }

    // MARK: - Orientation

    /// The physical device turned (`device`), or the app asked to re-read the masks
    /// (`attempt-rotation`), or a controller's orientation properties changed (`update`):
    /// the interface may turn, which plays as a rotation from `now`.
    /// (A refusal leaves the scene as it was: the model's operations change nothing when they throw.)
    mutating func orient(_ change: OrientationChange, at now: Double) throws(SceneError) -> [LifecycleRecord] {
        let plan: RotationPlan?
        switch change {
        case .device(let orientation):
            plan = try scene.deviceDidChange(to: orientation)
        case .attempt:
            plan = try scene.attemptRotationToDeviceOrientation()
        case .updateSupported:
            plan = try scene.updateSupportedInterfaceOrientations()
        case .requestGeometry(let mask):
            plan = try scene.requestGeometryUpdate(mask)
        case let .update(id, mask, autorotate, preferred):
            try scene.updateController(
                id, supportedOrientations: mask, shouldAutorotate: autorotate, preferredOrientation: preferred)
            plan = nil
        }
        guard let plan else {
            refreshArmed()
            return []
        }
        return startRotation(plan, at: now)
    }

    /// Plays `plan` (a device turn's, or a presentation's that turns the interface).
    mutating func startRotation(_ plan: RotationPlan, at now: Double) -> [LifecycleRecord] {
        group += 1
        var records = plan.startEvents.map { LifecycleRecord(group: group, action: "rotate", event: $0) }
        if plan.animated && plan.duration > 0 {
            rotation = Rotation(plan: plan, start: now, group: group)
        } else {
            records += plan.endEvents.map { LifecycleRecord(group: group, action: "rotate", event: $0) }
        }
        refreshArmed()
        return records
    }

    /// The display link ticked: the rotation's fraction, and its end callbacks when it is over.
    /// Slowed by `timeScale` (1: the plan's duration), which cannot change while it turns.
    mutating func advanceRotation(to now: Double, timeScale: Double = 1) -> [LifecycleRecord] {
        guard var running = rotation else { return [] }
        // On the display, slowed by `timeScale` and at most `longestCompletion` like a completion
        // (SessionOrientationTests.aSlowedTurnEndsWithinTheCompletionCap).
        let shown = min(running.plan.duration / timeScale, TransitionConfiguration.longestCompletion)
        let elapsed = (now - running.start) / shown
        guard elapsed < 1 else {
            rotation = nil
            return running.plan.endEvents.map { LifecycleRecord(group: running.group, action: "rotate", event: $0) }
        }
        running.fraction = running.plan.curve.value(at: max(elapsed, 0))
        rotation = running
        return []
    }

    /// The turn in progress at the running transition's `progress`, if any: a rotation of its
    /// own (at its fraction as of the latest tick), or one that goes with a present or dismiss
    /// (a full-screen present with another preferred orientation, a dismissal back to a
    /// controller that does not allow the current one). The latter turns with the transition,
    /// in one animation as UIKit's coordinator runs them: its fraction is the transition's
    /// progress on the kind's curve, so it tracks a finger and undoes itself on a cancel.
    func turning(progress: Double) -> (plan: RotationPlan, fraction: Double)? {
        if let rotation { return (rotation.plan, rotation.fraction) }
        if let flight, let turn = flight.plan.rotation { return (turn, flight.plan.kind.animated(progress)) }
        return nil
    }

    /// Drops what is armed (the engine could not be configured for it).
    mutating func disarm() { armed = nil }
}
