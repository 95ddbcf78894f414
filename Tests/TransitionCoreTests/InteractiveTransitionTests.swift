import Testing

@testable import TransitionCore

@Suite("Interactive transition")
struct InteractiveTransitionTests {
    static func engine(
        _ kind: TransitionKind = .pop, _ change: (inout TransitionConfiguration) -> Void = { _ in }
    ) throws(ConfigurationError) -> InteractiveTransition {
        var configuration = TransitionConfiguration(kind: kind)
        change(&configuration)
        return try InteractiveTransition(configuration: configuration)
    }

    @Test("a pan past the threshold finishes on the completion curve, ending on the exact end state")
    func finish() throws {
        var engine = try Self.engine()
        let gesture = Gesture.pan(dx: 150, hold: 0.05)  // 150/200 = 0.75; still for 50 ms: no velocity
        let events = try engine.apply(gesture.events)
        let release = ReleaseDecision(outcome: .finish, reason: .threshold, progress: 0.75, velocity: 0)
        #expect(events == [.began(progress: 0.05, grabbed: false), .released(release)])
        #expect(engine.phase == .finishing)
        // (1 − p)·duration / completionSpeed
        #expect(engine.completionEndTime == gesture.time + 0.25 * 1.0 / 1)

        let start = gesture.time
        let frames = engine.runCompletion(from: start)
        for frame in frames.dropLast() {
            let u = (frame.time - start) / 0.25
            #expect(frame.progress == 0.75 + 0.25 * TimingCurve.easeInEaseOut.value(at: u))
            #expect(frame.phase == .finishing)
        }
        #expect(
            frames.last
                == Frame(
                    phase: .finished, progress: 1, time: frames.last!.time, velocity: .zero,
                    layers: engine.animator.layers(at: engine.configuration.duration)))
        #expect(frames.count == 15 || frames.count == 16)
    }

    @Test("a short pan cancels and plays back to exactly the first frame")
    func cancel() throws {
        var engine = try Self.engine(.reveal)
        _ = try engine.handle(PointerEvent(.down, x: 100, y: 400, time: 0))
        let first = engine.frame()
        var gesture = Gesture(time: 0)
        gesture.move(dx: 60, over: 0.2, steps: 12)
        gesture.hold(0.1)
        gesture.up()
        _ = try engine.apply(Array(gesture.events.dropFirst()))
        #expect(engine.phase == .cancelling)
        #expect(engine.progress == 0.3)
        // cancelling plays back p · duration / completionSpeed
        #expect(engine.completionEndTime == gesture.time + 0.3 * 2.0)
        let frames = engine.runCompletion(from: gesture.time)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.progress >= $1.progress })
        let last = try #require(frames.last)
        #expect(last.phase == .cancelled)
        #expect(last.progress == 0)
        #expect(last.layers == first.layers)
    }

    @Test("progress is |translation| / distance, clamped to 0.01…0.99, along the configured axis")
    func progressRule() throws {
        var engine = try Self.engine(.fade)
        var g = Gesture(time: 0)
        g.move(dx: -40, over: 0.1, steps: 6)
        _ = try engine.apply(g.events)
        #expect(engine.progress == 0.2)  // leftwards counts too: abs()
        g.move(dx: -2000, over: 0.1, steps: 2)
        _ = try engine.apply(Array(g.events.suffix(2)))
        #expect(engine.progress == 0.99)
        g.move(dx: 2039, over: 0.1, steps: 1)  // back to 1 pt left of the start
        _ = try engine.apply(Array(g.events.suffix(1)))
        #expect(engine.progress == 0.01)

        var vertical = try Self.engine(.coverVertical) {
            $0.pan.axis = .y; $0.distance = 400
        }
        _ = try vertical.apply(Gesture.pan(dx: 0, dy: -200).events.dropLast())
        #expect(vertical.progress == 0.5)
    }

    @Test("completionSpeed scales the completion time; zero or less is refused with the field named")
    func completionSpeed() throws {
        var engine = try Self.engine(.fade) { $0.completionSpeed = 2 }
        let g = Gesture.pan(dx: 120, hold: 0.05)
        _ = try engine.apply(g.events)
        #expect(engine.completionEndTime == g.time + 0.4 * 0.5 / 2)
        for speed in [0.0, -1.0, .nan] {
            #expect(throws: ConfigurationError.self) { try Self.engine { $0.completionSpeed = speed } }
            do throws(ConfigurationError) {
                _ = try Self.engine { $0.completionSpeed = speed }
            } catch {
                #expect(error.field == "completionSpeed")
            }
        }
    }

    @Test("a fling beats the threshold in its own direction, when enabled")
    func fling() throws {
        // 50 pt in 50 ms = 1000 pt/s, released at once at progress 0.25
        var enabled = try Self.engine(.push) { $0.flingVelocity = 500 }
        let flick = Gesture.pan(dx: 50, over: 0.05)
        _ = try enabled.apply(flick.events)
        #expect(enabled.lastRelease?.outcome == .finish)
        #expect(enabled.lastRelease?.reason == .fling)
        #expect(abs(enabled.lastRelease!.velocity - 5) < 1e-9)  // 1000 pt/s / 200 pt

        var disabled = try Self.engine(.push)  // the reference: threshold only
        _ = try disabled.apply(flick.events)
        #expect(disabled.lastRelease?.outcome == .cancel)
        #expect(disabled.lastRelease?.reason == .threshold)

        // Past the threshold, flung back towards the start: cancels.
        var back = try Self.engine(.push) { $0.flingVelocity = 500 }
        var g = Gesture(time: 0)
        g.move(dx: 180, over: 0.3, steps: 18)
        g.move(dx: -60, over: 0.1, steps: 6)  // the last 100 ms: 600 pt/s back, at progress 0.6
        g.up()
        _ = try back.apply(g.events)
        #expect(back.lastRelease?.outcome == .cancel)
        #expect(back.lastRelease?.reason == .fling)
    }

    @Test("a pointer-down during the completion grabs it at its current progress, with no jump")
    func grab() throws {
        var engine = try Self.engine(.crossDissolve)
        let g = Gesture.pan(dx: 160, hold: 0.05)  // 0.8 → finishing over 0.1 s
        _ = try engine.apply(g.events)
        _ = engine.advance(to: g.time + 0.05)
        let before = engine.frame()
        #expect(before.phase == .finishing)

        let down = PointerEvent(.down, x: 10, y: 10, time: g.time + 0.05, pointerID: 3)
        let reaction = try engine.handle(down)
        #expect(reaction.events == [.began(progress: before.progress, grabbed: true)])
        #expect(engine.phase == .tracking)
        #expect(engine.frame().layers == before.layers)
        #expect(engine.advance(to: g.time + 1) == Reaction.none)  // paused: ticks do nothing

        // Dragging back 100 pt (the original pan went right) lowers progress by 0.5, no slop.
        _ = try engine.handle(PointerEvent(.move, x: -90, y: 10, time: g.time + 1.1, pointerID: 3))
        #expect(abs(engine.progress - (before.progress - 0.5)) < 1e-12)
        _ = try engine.handle(PointerEvent(.up, x: -90, y: 10, time: g.time + 1.2, pointerID: 3))
        #expect(engine.phase == .cancelling)
        _ = engine.runCompletion(from: g.time + 1.2)
        #expect(engine.phase == .cancelled)
        #expect(engine.progress == 0)
    }

    @Test("a spring completion starts at the release velocity: one timeline, no jump")
    func springCompletion() throws {
        var engine = try Self.engine(.pop) {
            $0.completionCurve = .spring; $0.completionDamping = 1
        }
        let g = Gesture.pan(dx: 120, over: 0.2)  // 600 pt/s = 3 progress/s at release
        _ = try engine.apply(g.events)
        let release = try #require(engine.lastRelease)
        #expect(abs(release.velocity - 3) < 1e-9)
        let h = 1e-5
        _ = engine.advance(to: g.time + h)
        let observed = (engine.progress - release.progress) / h
        #expect(abs(observed - release.velocity) < 0.01 * release.velocity)
        _ = engine.runCompletion(from: g.time + h)
        #expect(engine.phase == .finished)
        #expect(engine.progress == 1)
    }

    @Test("refused input throws and leaves the whole engine unchanged")
    func refusedInputChangesNothing() throws {
        var engine = try Self.engine()
        var g = Gesture(time: 1)
        g.move(dx: 80, over: 0.1, steps: 6)
        _ = try engine.apply(g.events)
        let before = engine
        #expect(throws: InputError.pointerNotDown(5)) {
            try engine.handle(PointerEvent(.up, x: 0, y: 0, time: 2, pointerID: 5))
        }
        #expect(throws: InputError.timeWentBackwards(previous: g.time, got: 0.5)) {
            try engine.handle(PointerEvent(.move, x: 0, y: 0, time: 0.5))
        }
        #expect(throws: InputError.nonFiniteValue) {
            try engine.handle(PointerEvent(.move, x: .infinity, y: 0, time: 2))
        }
        #expect(throws: InputError.pointerAlreadyDown(0)) {
            try engine.handle(PointerEvent(.down, x: 0, y: 0, time: 2))
        }
        #expect(engine == before)
    }

    @Test("late and impossible events are handled on purpose")
    func lateEvents() throws {
        var engine = try Self.engine(.fade)
        #expect(engine.advance(to: 5) == .none)  // idle: a tick changes nothing visible
        #expect(engine.advance(to: 4) == .none)  // a stale tick is ignored
        #expect(engine.time == 5)
        // A second pointer while tracking is ignored, its own up is accepted.
        _ = try engine.apply(Gesture(time: 5).events)
        _ = try engine.handle(PointerEvent(.move, x: 250, y: 400, time: 5.1))
        let progress = engine.progress
        _ = try engine.handle(PointerEvent(.down, x: 0, y: 0, time: 5.2, pointerID: 9))
        _ = try engine.handle(PointerEvent(.move, x: 300, y: 0, time: 5.3, pointerID: 9))
        _ = try engine.handle(PointerEvent(.up, x: 300, y: 0, time: 5.4, pointerID: 9))
        #expect(engine.phase == .tracking && engine.progress == progress)
        // A pointer cancel is decided like an up (REFERENCE §1).
        let reaction = try engine.handle(PointerEvent(.cancel, x: 250, y: 400, time: 5.5))
        #expect(reaction.events.count == 1)
        #expect(engine.phase == .finishing)
        _ = engine.runCompletion(from: 5.5)
        // After finishing, a tap does not restart; a pan does, from the start state.
        _ = try engine.apply([PointerEvent(.down, x: 0, y: 0, time: 9), PointerEvent(.up, x: 1, y: 0, time: 9.1)])
        #expect(engine.phase == .finished && engine.progress == 1)
        _ = try engine.apply(Gesture.pan(dx: 30, at: 10).events)
        #expect(engine.phase == .cancelling)
    }

    @Test("zero-length completions end at once (clamp 0…1 released at 0)")
    func zeroLengthCompletion() throws {
        var engine = try Self.engine(.fade) {
            $0.clampLower = 0; $0.clampUpper = 1; $0.pan.slop = 0
        }
        let events = try engine.apply([
            PointerEvent(.down, x: 0, y: 0, time: 0), PointerEvent(.move, x: 0, y: 0, time: 0.1),
            PointerEvent(.up, x: 0, y: 0, time: 0.2),
        ])
        #expect(events.last == .cancelled)
        #expect(engine.phase == .cancelled)
    }

    @Test("two replays of the same events are identical, state and frames")
    func determinism() throws {
        var a = try Self.engine(.partialCurl) { $0.completionCurve = .spring }
        var b = a
        let g = Gesture.pan(dx: 130, over: 0.3)
        var framesA: [Frame] = []
        var framesB: [Frame] = []
        for event in g.events {
            _ = try a.handle(event); framesA.append(a.frame())
            _ = try b.handle(event); framesB.append(b.frame())
        }
        framesA += a.runCompletion(from: g.time)
        framesB += b.runCompletion(from: g.time)
        #expect(a == b)
        #expect(framesA == framesB)
    }

    @Test("play runs the whole timeline linearly in time over the duration, ignoring the completion curve and speed")
    func play() throws {
        var engine = try Self.engine(.reveal) {
            $0.completionSpeed = 4; $0.completionCurve = .timing(.easeIn)
        }
        let reaction = try engine.play(at: 10)
        #expect(reaction == Reaction(frame: true, events: [.played]))
        #expect(engine.phase == .finishing)
        #expect(engine.completionEndTime == 10 + 2.0)
        let frames = engine.runCompletion(from: 10)
        for frame in frames.dropLast() {
            #expect(abs(frame.progress - (frame.time - 10) / 2.0) < 1e-12)
        }
        #expect(frames.last?.phase == .finished)
        #expect(frames.last?.layers == engine.animator.layers(at: 2.0))
        #expect(frames.count == 120)
    }

    @Test("play is refused, changing nothing, while tracking, completing or with a pointer down")
    func playRefused() throws {
        var engine = try Self.engine()
        _ = try engine.handle(PointerEvent(.down, x: 100, y: 400, time: 0))
        var before = engine
        #expect(throws: PlayError.notAtRest(.idle)) { try engine.play(at: 1) }
        #expect(engine == before)
        var gesture = Gesture(time: 0)
        gesture.move(dx: 150, over: 0.2, steps: 12)
        gesture.up()
        _ = try engine.apply(Array(gesture.events.dropFirst()))
        before = engine
        #expect(throws: PlayError.notAtRest(.finishing)) { try engine.play(at: 1) }
        #expect(engine == before)
        #expect(throws: PlayError.nonFiniteTime) { try engine.play(at: .nan) }
    }

    @Test("a pointer grabs a played run like any completion")
    func grabPlay() throws {
        var engine = try Self.engine()
        _ = try engine.play(at: 0)
        _ = engine.advance(to: 0.5)
        let progress = engine.progress
        let reaction = try engine.handle(PointerEvent(.down, x: 100, y: 400, time: 0.5))
        #expect(reaction.events == [.began(progress: progress, grabbed: true)])
        #expect(engine.phase == .tracking)
    }

    @Test("at rest before the start and after a cancel the destination is not in the container")
    func restingLayers() throws {
        let pop = try Self.engine(.pop)
        #expect(pop.layers().map(\.id) == [.from, .thumbnail])
        let reveal = try Self.engine(.reveal)
        #expect(!reveal.layers().contains { $0.id == .to || $0.id == .mask })
        #expect(reveal.layers().contains { $0.id == .logo })
        var tracking = try Self.engine(.pop)
        _ = try tracking.apply(Gesture.pan(dx: 60, over: 0.2).events.dropLast())
        #expect(tracking.phase == .tracking)
        #expect(tracking.layers().contains { $0.id == .to })
    }
}
