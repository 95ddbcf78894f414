import PropertyBased
import Testing

@testable import TransitionCore

/// The property-animator driver: UIViewPropertyAnimator's state machine driving the
/// same animators — fractionComplete scrubbing, scrubsLinearly, isReversed, pauseAnimation,
/// continueAnimation(withTimingParameters:durationFactor:).
@Suite("Property animator driver")
struct PropertyAnimatorTests {
    static func engine(_ change: (inout TransitionConfiguration) -> Void = { _ in }) throws -> InteractiveTransition {
        var configuration = TransitionConfiguration(kind: .push)
        configuration.driver = .propertyAnimator
        change(&configuration)
        return try InteractiveTransition(configuration: configuration)
    }

    static func state(_ state: PropertyAnimatorState.State, running: Bool, reversed: Bool, fraction: Double)
        -> PropertyAnimatorState
    {
        var s = PropertyAnimatorState()
        s.state = state
        s.isRunning = running
        s.isReversed = reversed
        s.fractionComplete = fraction
        return s
    }

    @Test("inactive until a pan; the pan creates it paused and scrubs fractionComplete")
    func scrubbing() throws {
        var engine = try Self.engine()
        #expect(engine.animatorState == Self.state(.inactive, running: false, reversed: false, fraction: 0))
        var g = Gesture()
        g.move(dx: 80, over: 0.3, steps: 18)
        _ = try engine.apply(g.events)
        #expect(engine.phase == .tracking)
        #expect(engine.animatorState == Self.state(.active, running: false, reversed: false, fraction: 0.4))
        #expect(engine.progress == 0.4)  // scrubsLinearly: the view at the fraction itself
        #expect(try InteractiveTransition(configuration: TransitionConfiguration()).animatorState == nil)
    }

    @Test("scrubsLinearly false: the view follows the animator's curve while scrubbed")
    func scrubsThroughTheCurve() throws {
        var engine = try Self.engine {
            $0.propertyAnimator.scrubsLinearly = false; $0.propertyAnimator.curve = .easeIn
        }
        var g = Gesture()
        g.move(dx: 80, over: 0.3, steps: 18)
        _ = try engine.apply(g.events)
        #expect(engine.animatorState?.fractionComplete == 0.4)
        #expect(engine.progress == TimingCurve.easeIn.value(at: 0.4))
        #expect(engine.layers() == engine.animator.layers(at: TimingCurve.easeIn.value(at: 0.4) * 0.5))
    }

    @Test("a finish: running forward over the remaining duration; the completion handler leaves it inactive")
    func finish() throws {
        var engine = try Self.engine { $0.completionSpeed = 4 }  // the percent-driven controller's, not used
        let g = Gesture.pan(dx: 120, over: 0.3, hold: 0.2)  // 0.6, still
        _ = try engine.apply(g.events)
        #expect(engine.animatorState == Self.state(.active, running: true, reversed: false, fraction: 0.6))
        #expect(engine.completionEndTime == g.time + 0.4 * 0.5)  // (1 − 0.6) × duration
        _ = engine.advance(to: g.time + 0.1)
        // fractionComplete runs linearly in time; the view follows completionCurve (easeInEaseOut).
        #expect(abs(engine.animatorState!.fractionComplete - 0.8) < 1e-12)
        #expect(abs(engine.progress - (0.6 + 0.4 * TimingCurve.easeInEaseOut.value(at: 0.5))) < 1e-12)
        let end = engine.advance(to: try #require(engine.completionEndTime) + 1e-9)
        #expect(end.events == [.finished])
        #expect(engine.animatorState == Self.state(.inactive, running: false, reversed: false, fraction: 1))
        #expect(engine.progress == 1)
    }

    @Test("a cancel sets isReversed and runs back to the start")
    func cancel() throws {
        var engine = try Self.engine()
        let g = Gesture.pan(dx: 60, over: 0.3, hold: 0.2)  // 0.3, still
        _ = try engine.apply(g.events)
        #expect(engine.phase == .cancelling)
        #expect(engine.animatorState == Self.state(.active, running: true, reversed: true, fraction: 0.3))
        _ = engine.advance(to: g.time + 0.075)  // half of 0.3 × 0.5 s
        #expect(abs(engine.animatorState!.fractionComplete - 0.15) < 1e-12)
        _ = engine.runCompletion(from: g.time + 0.075)
        #expect(engine.phase == .cancelled && engine.progress == 0)
        #expect(engine.animatorState == Self.state(.inactive, running: false, reversed: true, fraction: 0))
        #expect(engine.layers() == (try Self.engine()).layers())
    }

    @Test("continueAnimation's durationFactor: the run lasts factor × duration, whatever remains")
    func durationFactor() throws {
        var engine = try Self.engine { $0.propertyAnimator.durationFactor = 2 }
        let g = Gesture.pan(dx: 120, over: 0.3, hold: 0.2)
        _ = try engine.apply(g.events)
        #expect(engine.completionEndTime == g.time + 2 * 0.5)
        _ = engine.advance(to: g.time + 0.5)
        #expect(abs(engine.animatorState!.fractionComplete - 0.8) < 1e-12)
    }

    @Test("pauseAnimation on a touch: the run stops, isReversed resets, the pan goes on from fractionComplete")
    func pauseAndGrab() throws {
        var engine = try Self.engine()
        let g = Gesture.pan(dx: 60, over: 0.3, hold: 0.2)  // cancels from 0.3 over 0.15 s
        _ = try engine.apply(g.events)
        _ = engine.advance(to: g.time + 0.075)
        let visual = engine.progress  // eased: 0.3 − 0.3 × easeInEaseOut(0.5) = 0.15
        #expect(abs(visual - 0.15) < 1e-12)
        var grab = Gesture(at: Point(x: 200, y: 400), time: g.time + 0.075)
        let began = try engine.apply(grab.events)
        #expect(began == [.began(progress: engine.progress, grabbed: true)])
        #expect(abs(engine.animatorState!.fractionComplete - 0.15) < 1e-12)
        #expect(engine.animatorState?.state == .active && engine.animatorState?.isRunning == false)
        #expect(engine.animatorState?.isReversed == false)
        grab.move(dx: 40, over: 0.2, steps: 12)
        grab.hold(0.2)
        grab.up()
        _ = try engine.apply(Array(grab.events.dropFirst()))
        // 0.15 + 40/200 = 0.35: still below the threshold, reversed again.
        #expect(abs(engine.lastRelease!.progress - 0.35) < 1e-12)
        #expect(engine.animatorState?.isReversed == true && engine.animatorState?.isRunning == true)
    }

    @Test("with a curve and linear scrubbing, a pause jumps the view to the scrubbed fraction (UIKit's quirk)")
    func pauseJumps() throws {
        var engine = try Self.engine { $0.completionCurve = .timing(.easeIn) }
        let g = Gesture.pan(dx: 120, over: 0.3, hold: 0.2)  // finishes from 0.6 over 0.2 s
        _ = try engine.apply(g.events)
        _ = engine.advance(to: g.time + 0.1)
        let before = engine.progress  // 0.6 + 0.4 × easeIn(0.5)
        _ = try engine.handle(PointerEvent(.down, x: 200, y: 400, time: g.time + 0.1))
        #expect(abs(before - (0.6 + 0.4 * TimingCurve.easeIn.value(at: 0.5))) < 1e-12)
        #expect(abs(engine.progress - 0.8) < 1e-12)  // fractionComplete, scrubbed linearly
    }

    @Test("pausesOnCompletion: the run stops at its end, active and paused, and the transition does not complete")
    func pausesOnCompletion() throws {
        var engine = try Self.engine { $0.propertyAnimator.pausesOnCompletion = true }
        let g = Gesture.pan(dx: 120, over: 0.3, hold: 0.2)  // 0.6: finishes over 0.2 s
        _ = try engine.apply(g.events)
        let frames = engine.runCompletion(from: g.time)
        #expect(engine.phase == .paused && engine.progress == 1)
        #expect(engine.phase.isAtRest && !engine.phase.isAnimating)
        #expect(engine.animatorState == Self.state(.active, running: false, reversed: false, fraction: 1))
        // The end picture, but the source view still in the container: the transition has not
        // completed, so nothing removed it (as on iOS).
        #expect(engine.layers().map(\.id) == [.from, .to])
        #expect(
            engine.layers().first { $0.id == .to }?.center.x.rounded()
                == engine.animator.layers(at: 0.5).first { $0.id == .to }?.center.x.rounded())
        #expect(frames.last?.phase == .paused)
        // Ticks change nothing: no completion handler, no finished.
        #expect(engine.advance(to: g.time + 10) == .none)
        // A pan takes it over from the end (slop included, along the first pan's direction):
        // 120 pt back is 1 − 0.6 = 0.4, below the threshold: reversed to the start, paused there.
        var back = Gesture(at: Point(x: 220, y: 400), time: g.time + 10)
        back.move(dx: -120, over: 0.3, steps: 18)
        back.hold(0.2)
        back.up()
        let events = try engine.apply(back.events)
        // Began at the second 6.67 pt step (past the 10 pt slop): 1 − 13.33/200.
        guard case let .began(progress, grabbed)? = events.first else { Issue.record("no began"); return }
        #expect(grabbed && abs(progress - (1 - 2 * 120.0 / 18 / 200)) < 1e-12)
        #expect(engine.lastRelease?.outcome == .cancel && abs(engine.lastRelease!.progress - 0.4) < 1e-12)
        #expect(engine.animatorState?.isReversed == true)
        var rest = [TransitionEvent]()
        var t = back.time
        while engine.phase.isAnimating {
            t += 1.0 / 60
            rest += engine.advance(to: t).events
        }
        #expect(rest == [.pausedOnCompletion(progress: 0)])
        #expect(engine.phase == .paused && engine.progress == 0)
        // Still in the container (the transition never completed): not the idle picture.
        #expect(engine.layers() == engine.animator.layers(at: 0))
        // play from the paused animator: a plain run, no animator.
        _ = try engine.play(at: t + 1)
        #expect(engine.animatorState == PropertyAnimatorState())
    }

    @Test("fractionComplete reads as on iOS 11+: 1 − the forward time while reversed")
    func reportedFractionComplete() {
        var state = PropertyAnimatorState()
        state.fractionComplete = 0.3
        #expect(state.reportedFractionComplete == 0.3)
        state.isReversed = true
        #expect(state.reportedFractionComplete == 0.7)
        state.fractionComplete = 0
        #expect(state.reportedFractionComplete == 1)
    }

    @Test("the negative-speed pitfall is the percent-driven controller's; complete-on-cancel still bites")
    func pitfalls() throws {
        var engine = try Self.engine { $0.pitfalls = [.negativeCompletionSpeed] }
        let g = Gesture.pan(dx: 60, over: 0.3, hold: 0.2)
        _ = try engine.apply(g.events)
        #expect(engine.completionEndTime == g.time + 0.3 * 0.5)
        var stuck = try Self.engine { $0.pitfalls = [.completeOnCancel] }
        #expect(try stuck.apply(g.events).last == .finished)
        #expect(stuck.progress == 0.3)
        // The transition completed: its animator is done with (inactive, not paused active), the
        // source view removed; the next pan creates a new animator.
        #expect(stuck.animatorState?.state == .inactive && stuck.animatorState?.isRunning == false)
        #expect(!stuck.layers().contains { $0.id == .from })
    }

    @Test("durationFactor and the animator's Bézier are validated", arguments: [-0.1, 10.5, .nan, .infinity])
    func validation(factor: Double) {
        var configuration = TransitionConfiguration()
        configuration.propertyAnimator.durationFactor = factor
        do {
            try configuration.validate()
            Issue.record("accepted \(factor)")
        } catch {
            #expect(error.field == "propertyAnimator.durationFactor")
        }
    }

    /// With linear scrubbing and the default factor, the property animator shows what the
    /// percent-driven transition at completionSpeed 1 shows: the same progress, the same layers.
    @Test func matchesThePercentDrivenAtSpeedOne() async {
        await propertyCheck(count: 150, input: PropertyTests.steps, PropertyTests.holds, PropertyTests.kinds) {
            steps, hold, kind in
            var percent = TransitionConfiguration(kind: TransitionKind.allCases[kind])
            var animator = percent
            animator.driver = .propertyAnimator
            percent.completionCurve = .timing(.easeIn)
            animator.completionCurve = .timing(.easeIn)
            var a = try! InteractiveTransition(configuration: percent)
            var b = try! InteractiveTransition(configuration: animator)
            for event in PropertyTests.gesture(steps, hold: hold) {
                #expect(try! a.handle(event) == (try! b.handle(event)))
                #expect(a.progress == b.progress)
            }
            let start = a.time
            #expect(a.runCompletion(from: start) == b.runCompletion(from: start))
            #expect(a.layers() == b.layers())
        }
    }

    /// The state machine's invariants over random gestures with grabs.
    @Test func stateFollowsThePhase() async {
        await propertyCheck(
            count: 200, input: Gen.double(in: -30...30).array(of: 1...30), Gen.int(in: 0...20), Gen.bool
        ) { steps, grabAfter, linear in
            var engine = try! Self.engine {
                $0.propertyAnimator.pausesOnCompletion = grabAfter % 2 == 0
                $0.propertyAnimator.scrubsLinearly = linear
                $0.propertyAnimator.curve = .easeOut
                $0.completionCurve = .spring
            }
            var time = 0.0
            func check() {
                let state = engine.animatorState!
                #expect(state.fractionComplete >= 0 && state.fractionComplete <= 1)
                switch engine.phase {
                case .tracking: #expect(state.state == .active && !state.isRunning && !state.isReversed)
                case .finishing: #expect(state.state == .active && state.isRunning && !state.isReversed)
                case .cancelling: #expect(state.state == .active && state.isRunning && state.isReversed)
                case .idle: #expect(state == PropertyAnimatorState())
                case .finished, .cancelled: #expect(state.state == .inactive && !state.isRunning)
                case .paused: #expect(state.state == .active && !state.isRunning)
                }
            }
            for round in 0..<2 {
                var x = 200.0
                _ = try! engine.handle(PointerEvent(.down, x: x, y: 400, time: time))
                check()
                for dx in steps {
                    time += 0.016
                    x += dx
                    _ = try! engine.handle(PointerEvent(.move, x: x, y: 400, time: time))
                    check()
                }
                _ = try! engine.handle(PointerEvent(.up, x: x, y: 400, time: time))
                check()
                // Tick a while; the second round's down may grab the run.
                for _ in 0..<(round == 0 ? grabAfter : 1000) where engine.phase.isAnimating {
                    time += 1.0 / 60
                    _ = engine.advance(to: time)
                    check()
                }
            }
        }
    }
}
