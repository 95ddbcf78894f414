/// The percent-driven interactive transition (`UIPercentDrivenInteractiveTransition` plus the
/// seed's `handlePan`) as a pure state machine. Feed it pointer events and clock ticks, each
/// with its own time; read frames. Same inputs, bit-identical frames: no clock, no I/O.
///
/// Every input is validated first; a refused input throws and changes nothing.
public struct InteractiveTransition: Equatable, Sendable {
    public let configuration: TransitionConfiguration
    public let animator: Animator
    public internal(set) var phase: TransitionPhase = .idle
    /// The transition's completion fraction, 0…1 (within the clamp while tracking).
    public internal(set) var progress = 0.0
    /// The time of the latest applied input, in seconds.
    public internal(set) var time = -Double.infinity
    /// The decision of the latest release.
    public internal(set) var lastRelease: ReleaseDecision?
    /// With `TransitionDriver.propertyAnimator`: the animator's state; nil when percent-driven.
    /// `progress` is then what the view shows, `animatorState.fractionComplete` the animator's time.
    public internal(set) var animatorState: PropertyAnimatorState?

    var recognizer: PanRecognizer
    /// The unit vector along which movement raises progress (set when a pan begins or ends).
    var gestureAxis = Point(x: 1, y: 0)
    /// Progress when the current pan grabbed a running completion; nil for a fresh pan.
    var grabbedAt: Double?
    var completion: Completion?
    /// UIKit's edge-swipe pop: the statistics of the current pan (`EdgePopStatistics`).
    var popStatistics: EdgePopStatistics?
    /// The zoom's two-dimensional dismissal (InteractiveTransition+Zoom.swift); nil for every other kind.
    var zoomDrag: ZoomDrag?

    public init(configuration: TransitionConfiguration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        animator = Animator(configuration: configuration)
        recognizer = PanRecognizer(settings: configuration.pan)
        if configuration.driver == .propertyAnimator { animatorState = PropertyAnimatorState() }
    }

    /// The animators' timeline position: the timeline is scrubbed at progress × duration.
    public var timelineTime: Double { progress * configuration.duration }
    /// The pan's velocity in pt/s.
    public var velocity: Point { recognizer.velocity }
    /// True while the pointer the pan follows is down (recognized or not).
    public var isPointerDown: Bool { recognizer.hasPointerDown }

    /// What the container shows. Before the transition starts (idle) and once it is cancelled,
    /// the destination is not in the container: UIKit's animator adds the `to` view in
    /// `animateTransition` and the cancelled transition removes it. So at rest at progress 0
    /// only the source side is shown (pop: the list with its thumbnail, not a scaled detail on
    /// top of it; reveal: no feed peeking through the logo-sized mask).
    public func layers() -> [LayerState] {
        var layers: [LayerState] = []
        self.layers(into: &layers)
        return layers
    }

    /// Appends `layers()` to `layers` (what is there stays): a caller that keeps its list between
    /// frames allocates nothing while a transition tracks, completes or rests; only the pitfalls'
    /// branches may (`InteractiveTransitionAppendTests`).
    public func layers(into layers: inout [LayerState]) {
        // Pitfall.negativeCompletionSpeed: the layer clock ran past the animations' start, so
        // every layer shows its model value, the end state, until the cancel is cleaned up.
        if phase == .cancelling, let completion, completion.isFlashing(at: time) {
            animator.layers(at: animator.duration, into: &layers)
            return
        }
        // The animators drop the source view at their end (as `completeTransition(true)` removes
        // it); until the transition has completed — a drag held at the end, a spring's overshoot
        // clipped at 1, a property animator paused on completion — UIKit still has it in the
        // container: the picture just before the end.
        let time = phase == .finished ? timelineTime : min(timelineTime, animator.duration.nextDown)
        let start = layers.count
        if !zoomLayers(into: &layers) { animator.layers(at: time, into: &layers) }
        if phase == .idle || phase == .cancelled {
            Self.remove(.to, from: &layers, after: start)
        } else if completedOnCancel, !animator.layers(at: animator.duration).contains(where: { $0.id == .from }) {
            // Pitfall.completeOnCancel: `completeTransition(true)` removed the source view (as
            // it does at every finish whose end state drops it), though the picture froze at
            // the release progress: the destination alone, part way.
            Self.remove(.from, from: &layers, after: start)
        }
    }

    /// True once `Pitfall.completeOnCancel` has reported a cancelled release finished.
    private var completedOnCancel: Bool {
        phase == .finished && lastRelease?.outcome == .cancel && configuration.pitfalls.contains(.completeOnCancel)
    }

    /// Removes the view `id` and the masks it carries from `layers[start...]`, in place: a
    /// handful of layers, so no set of masks is made (`InteractiveTransitionAppendTests` checks it
    /// against a set and a filter).
    private static func remove(_ id: LayerID, from layers: inout [LayerState], after start: Int) {
        // The masks first, while every layer that carries one is still there.
        for index in (start..<layers.count).reversed() where layers[index].id != id {
            let mask = layers[index].id
            if (start..<layers.count).contains(where: { layers[$0].id == id && layers[$0].mask == mask }) {
                layers.remove(at: index)
            }
        }
        var index = start
        while index < layers.count {
            if layers[index].id == id { layers.remove(at: index) } else { index += 1 }
        }
    }

    public func frame() -> Frame {
        frame(reusing: [])
    }

    /// `frame()`, its layers written into `layers`' storage (emptied, its capacity kept): pass a
    /// list kept from the previous frame, consumed (`consume`: a copy is a second reference, and
    /// emptying it would make new storage), and nothing is allocated.
    public func frame(reusing layers: consuming [LayerState]) -> Frame {
        layers.removeAll(keepingCapacity: true)
        self.layers(into: &layers)
        return Frame(phase: phase, progress: progress, time: time, velocity: velocity, layers: layers)
    }

    // MARK: - Inputs

    /// Applies a pointer event. Every applied event asks for a frame (it acknowledges the input).
    public mutating func handle(_ event: PointerEvent) throws(InputError) -> Reaction {
        guard event.position.isFinite, event.time.isFinite else { throw .nonFiniteValue }
        guard event.time >= time else { throw .timeWentBackwards(previous: time, got: event.time) }
        try recognizer.validate(event)
        // Nothing below throws: the event is applied whole.
        let shown = zoomCard()

        var events: [TransitionEvent] = []
        advanceCompletion(to: event.time, events: &events)
        time = event.time
        // A pointer landing on a running completion grabs it at once (no slop), like touching
        // an interruptible UIKit animation.
        let grabbing = phase.isAnimating && event.phase == .down && !recognizer.hasPointerDown
        let update: PanRecognizer.State?
        do {
            update = try recognizer.handle(event, beginImmediately: grabbing)
        } catch {
            preconditionFailure("validate(_:) accepted an event handle(_:) refuses: \(error)")
        }

        switch (phase, update) {
        case (.finishing, .began?), (.cancelling, .began?):
            completion = nil
            grabbedAt = progress
            if var state = animatorState, state.state == .active {
                // pauseAnimation(), and isReversed = false so the finger's direction counts
                // forward: the pan goes on from the animator's fractionComplete (its time), and
                // the view jumps to that fraction as scrubbed (UIKit's own quirk with a curve).
                state.isRunning = false
                state.isReversed = false
                animatorState = state
                grabbedAt = state.fractionComplete
                progress = configuration.propertyAnimator.scrubbed(state.fractionComplete)
            }
            phase = .tracking
            events.append(.began(progress: progress, grabbed: true))
        case (.paused, .began?):
            // The animator paused at its end (pausesOnCompletion): the pan takes it over from
            // its fractionComplete along the first pan's direction, as a grab does (the slop
            // included, as any pan that was not a grab); isReversed = false.
            grabbedAt = animatorState?.fractionComplete ?? progress
            animatorState?.isReversed = false
            progress = scrub(trackedProgress().progress)
            phase = .tracking
            events.append(.began(progress: progress, grabbed: true))
        case (.idle, .began?), (.finished, .began?), (.cancelled, .began?):
            grabbedAt = nil
            gestureAxis = initialAxis()
            progress = scrub(trackedProgress().progress)
            phase = .tracking
            events.append(.began(progress: progress, grabbed: false))
        case (.tracking, .changed?):
            progress = scrub(trackedProgress().progress)
        case (.tracking, .ended?), (.tracking, .cancelled?):
            // REFERENCE §1: ended and cancelled are decided alike.
            let tracked = trackedProgress()
            progress = scrub(tracked.progress)
            samplePop(tracked, first: false, final: true)
            release(at: tracked.progress, velocity: tracked.velocity, events: &events)
        case (_, nil),
            // A recognizer update the phase cannot take: impossible by construction (the
            // recognizer is active exactly while tracking), listed so the switch stays total.
            (.tracking, .began?), (.tracking, .possible?), (.tracking, .failed?),
            (.idle, _?), (.finished, _?), (.cancelled, _?), (.finishing, _?), (.cancelling, _?), (.paused, _?):
            break
        }
        if phase == .tracking, update == .began || update == .changed {
            samplePop(trackedProgress(), first: update == .began, final: false)
        }
        followZoom(update, shown: shown)
        return Reaction(frame: true, events: events)
    }

    /// Advances the clock (a display-link tick). While finishing or cancelling this moves the
    /// completion and asks for a frame; otherwise it only notes the time. A tick older than the
    /// latest input is ignored.
    public mutating func advance(to newTime: Double) -> Reaction {
        guard newTime.isFinite, newTime >= time else { return .none }
        let wasAnimating = phase.isAnimating
        var events: [TransitionEvent] = []
        advanceCompletion(to: newTime, events: &events)
        time = newTime
        return Reaction(frame: wasAnimating, events: events)
    }

    /// Runs the whole transition non-interactively from its start, like a tap that presents
    /// with `animated: true` and no interaction controller: the phase becomes `finishing` and
    /// ticks move it to the end. Refused (nothing changes) unless the transition rests with no
    /// pointer down. A pointer may grab the run like any completion.
    public mutating func play(at newTime: Double) throws(PlayError) -> Reaction {
        guard newTime.isFinite else { throw .nonFiniteTime }
        guard phase.isAtRest, !recognizer.hasPointerDown else { throw .notAtRest(phase) }
        time = max(newTime, time)
        progress = 0
        lastRelease = nil
        grabbedAt = nil
        zoomDrag = nil
        if animatorState != nil { animatorState = PropertyAnimatorState() }  // no animator: a plain run
        phase = .finishing
        completion = Completion(playingFrom: 0, at: time, configuration: configuration)
        var events: [TransitionEvent] = [.played]
        advanceCompletion(to: time, events: &events)
        return Reaction(frame: true, events: events)
    }

    /// Records a sample of the pan for UIKit's edge-swipe pop (its began, changes and release).
    private mutating func samplePop(_ tracked: (progress: Double, velocity: Double), first: Bool, final: Bool) {
        guard configuration.systemGesture == .edgePop else { return }
        if first || popStatistics == nil {
            popStatistics = EdgePopStatistics(time: time, displacement: tracked.progress, velocity: tracked.velocity)
        } else {
            popStatistics?.add(time: time, displacement: tracked.progress, velocity: tracked.velocity, final: final)
        }
    }

    /// When the running completion (if any) will end, in engine time.
    public var completionEndTime: Double? {
        completion.map { $0.start + $0.duration + $0.flash }
    }
}
