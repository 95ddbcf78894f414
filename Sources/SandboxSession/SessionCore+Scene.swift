import TransitionCore

/// The scene: setting it up, its commands and rotations, and how the engine follows it.
extension SessionCore {

    /// `scene`: a new scene and its launch callbacks, or (`root` null) back to the configured
    /// transition alone.
    mutating func setUpScene(_ setup: SceneSetup) throws(WireError) -> SessionReaction {
        try checkAtRest("set the scene")
        var reaction = SessionReaction(frame: true, sceneChanged: true)
        if let root = setup.root {
            let (next, records) = try Self.sceneStep { () throws(SceneError) in
                try SceneSession.launch(setup, root: root)
            }
            scene = next
            reaction.lifecycle = records
        } else {
            scene = nil
        }
        resetEngine()
        clockOffset = nil
        return counted(reaction)
    }

    /// `present`, `dismiss`, `push`, `pop`: armed for the next pan (`interactive`), played now
    /// (`animated`), or done at once.
    mutating func run(_ command: SceneCommand, at now: Double) throws(WireError) -> SessionReaction {
        var next = try currentScene()
        do throws(WireError) {
            try checkAtRest("\(command.request.action.rawValue) it")
        } catch {
            // Seed 000 on iOS 8: presenting again while the first present turns the interface
            // is the app's crash, not `busy` (ScenePresentationVersionTests, scene-seed-000-crash);
            // a present during a present or dismiss is `busy` with UIKit's warning.
            if next.flight != nil,
                case .failure(let refusal) = Result(catching: { () throws(SceneError) in try next.trial(command) })
            {
                switch refusal {
                case .uncaughtException, .presentingWhileBusy: throw WireError(refusal)
                default: break
                }
            }
            throw error
        }
        let plan = try Self.sceneStep { () throws(SceneError) in try next.trial(command) }
        let nextEngine = try engine(for: plan, settings: settings)
        var reaction = SessionReaction(frame: true, sceneChanged: true)
        if command.interactive && command.animated {
            next.arm(command, plan: plan)
            scene = next
            engine = nextEngine
        } else {
            reaction.lifecycle = try Self.sceneStep { () throws(SceneError) in try next.start(command) }
            scene = next
            if command.animated {
                engine = nextEngine
                // A fresh engine at rest with no pointer down: play cannot be refused.
                reaction.events = (try? engine.play(at: now))?.events ?? []
            } else {
                resetEngine()
            }
        }
        clockOffset = nil
        return counted(reaction)
    }

    /// Changes the scene in place (copying it first if another session value shares it).
    /// There must be one.
    mutating func updateScene<R>(_ body: (inout SceneSession) -> R) -> R {
        if !isKnownUniquelyReferenced(&sceneBox!) { sceneBox = SceneSessionBox(sceneBox!.session) }
        return body(&sceneBox!.session)
    }

    /// The scene, for the messages that need one.
    func currentScene() throws(WireError) -> SceneSession {
        guard let scene else {
            throw WireError(.noScene, "send a scene first: {\"type\":\"scene\",\"root\":{\"id\":…}}")
        }
        return scene
    }

    /// A fresh engine for what the scene's next pan drives (or the configured transition).
    /// When the plan's engine cannot be made (settings that do not fit its container), the
    /// scene arms nothing rather than drive the wrong transition.
    mutating func resetEngine() {
        enginePointer = nil
        if let plan = sceneBox?.session.plan {
            do {
                engine = try engine(
                    for: plan, settings: settings, systemGesture: sceneBox!.session.systemGesture)
                return
            } catch {
                if hasScene { updateScene { $0.disarm() } }
            }
        }
        // Validated when the settings were applied, so this cannot fail.
        engine = try! InteractiveTransition(configuration: settings.configuration)
    }

    /// The engine that animates a scene operation's plan with `settings`' release rules, or,
    /// for UIKit's own gesture (`systemGesture`), its release (`EdgePopRelease`,
    /// `SheetSwipeRelease`) on UIKit's percent-driven controller
    /// (`_UINavigationInteractiveTransitionBase` is a `UIPercentDrivenInteractiveTransition`:
    /// EdgePopReleaseTests).
    func engine(for plan: SceneTransitionPlan, settings: SessionSettings, systemGesture: SystemGesture? = nil)
        throws(WireError) -> InteractiveTransition
    {
        var configuration = plan.configuration(from: settings.configuration)
        if let systemGesture {
            configuration.systemGesture = systemGesture
            configuration.driver = .percentDriven
        }
        // The pop kind's thumbnail: its default place in this container; the zoom's source view.
        configuration.originFrame = plan.zoomSource == nil ? nil : plan.zoomFrame
        // A property animator that pauses on completion never completes its transition: the
        // scene's operation would stay in flight for good (docs/ENGINE.md, "The property-animator driver").
        configuration.propertyAnimator.pausesOnCompletion = false
        // In a landscape interface the flip turns about the device's long axis (seed 003).
        configuration.longAxisHorizontal = sceneBox?.session.scene.interfaceOrientation.isLandscape ?? false
        do {
            return try InteractiveTransition(configuration: configuration)
        } catch {
            throw WireError(error)
        }
    }

    static func ends(_ event: TransitionEvent) -> Bool { event == .finished || event == .cancelled }

    static func sceneStep<T>(_ body: () throws(SceneError) -> T) throws(WireError) -> T {
        do {
            return try body()
        } catch {
            throw WireError(error)
        }
    }

    /// What the engine's events mean for the scene: a pan that begins starts the armed
    /// operation; a finish or cancel ends the one in flight and arms the next.
    /// `pointer`: the pointer whose event this reaction answers, if any.
    /// `now`: the server's clock (a client's time may run up to `maximumLead` ahead of it).
    mutating func sceneFollows(_ reaction: inout SessionReaction, pointer: Int? = nil, at now: Double) {
        guard hasScene else { return }
        for event in reaction.events {
            switch event {
            case .began(_, grabbed: false):
                if let records = updateScene({ $0.beginArmed() }) {
                    reaction.lifecycle += records
                    reaction.sceneChanged = true
                }
            case .finished, .cancelled:
                guard sceneBox!.session.flight != nil else { continue }
                reaction.lifecycle += updateScene { $0.end(completed: event == .finished, at: now) }
                reaction.sceneChanged = true
                // A pointer that came down as the completion ended (the event brought it to its
                // end) is the old engine's: held, so its moves and lift are not refused.
                let wasDown = engine.isPointerDown
                resetEngine()
                if wasDown, let pointer { heldPointers.insert(pointer) }
                lastOutcome = event == .finished ? .finished : .cancelled
            default:
                continue
            }
        }
    }

    /// `device`, `attempt-rotation`, `update`, `update-supported-orientations`,
    /// `request-geometry-update`: the interface may turn (played from `now`). A device turn is
    /// physical and never `busy`: during a transition the scene records it and turns later;
    /// during a rotation the running one ends first. It is refused only as UIKit throws
    /// (`no-common-orientation`, and then the running rotation is not ended either).
    mutating func orient(_ request: OrientationRequest, at now: Double) throws(WireError) -> SessionReaction {
        var next = try currentScene()
        let change: SceneSession.OrientationChange
        switch request {
        case .device(let orientation):
            change = .device(orientation)
        case .attempt:
            try checkAtRest("attempt a rotation")
            change = .attempt
        case .updateSupported:
            try checkAtRest("update the supported orientations")
            change = .updateSupported
        case .requestGeometry(let mask):
            try checkAtRest("request a geometry update")
            change = .requestGeometry(mask)
        case let .update(id, mask, autorotate, preferred):
            try checkAtRest("update it")
            guard let current = next.scene.controller(id)?.orientationProperties else {
                throw WireError(SceneError.unknownController(id))
            }
            change = .update(
                id, mask: mask ?? current.supportedOrientations,
                shouldAutorotate: autorotate ?? current.shouldAutorotate,
                preferred: preferred ?? current.preferredOrientation)  // .some(nil) clears it
        }
        var reaction = SessionReaction(frame: true, sceneChanged: true)
        if next.rotation != nil { reaction.lifecycle += next.advanceRotation(to: .infinity) }
        reaction.lifecycle += try Self.sceneStep { () throws(SceneError) in try next.orient(change, at: now) }
        let turned = next.scene.interfaceOrientation != sceneBox?.session.scene.interfaceOrientation
        scene = next
        if turned { endDetentDrag() }
        if engine.phase.isAtRest {
            // The armed plan's container may have turned: a fresh engine for it. A pointer
            // down on the old one (before its pan began) is held, like touches a rotation cancels.
            if engine.isPointerDown, turned, let pointer = enginePointer {
                heldPointers.insert(pointer)
                resetEngine()
            } else if !engine.isPointerDown {
                resetEngine()
            }
        }
        return counted(reaction)
    }
}

extension SceneSession {
    /// `SessionCore.engineTakes` for a down while the engine has no pointer down.
    func engineTakes(_ message: PointerMessage, engineAnimating: Bool) -> Bool {
        // Nothing starts while the interface turns (a pan would begin a transition laid out
        // for bounds that are changing).
        if rotation != nil { return false }
        // The zoom is always interruptible (Apple: people "grab, drag, and control the transitions
        // when they begin and anytime during their animation"). SessionZoomTests.
        if engineAnimating { return interruptible || plan?.kind == .zoom }
        guard let armed else { return false }
        // The scene's own dismissal gesture belongs to the presented view: a sheet's pan starts
        // on the card, not on the dimmed presenter around it.
        if armed.isDefault, armed.plan.action == .dismiss,
            !armed.plan.container.contains(Point(x: message.x, y: message.y))
        {
            return false
        }
        return !outsideEdgeBand(message)
    }

    /// A down that misses the band of the edge swipe armed (if one is).
    func outsideEdgeBand(_ message: PointerMessage) -> Bool {
        guard let plan = armed?.plan, plan.edgeSwipe else { return false }
        return message.x - plan.container.minX > Self.edgeBand
    }
}
