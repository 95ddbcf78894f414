import Testing

@testable import TransitionCore

/// Each pitfall draws its documented wrong picture (docs/ENGINE.md "Pitfalls").
@Suite("Pitfalls")
struct PitfallTests {
    static func engine(
        _ kind: TransitionKind = .push, _ pitfalls: Set<Pitfall>,
        _ change: (inout TransitionConfiguration) -> Void = { _ in }
    ) throws -> InteractiveTransition {
        var configuration = TransitionConfiguration(kind: kind)
        configuration.pitfalls = pitfalls
        change(&configuration)
        return try InteractiveTransition(configuration: configuration)
    }

    static func layer(_ id: LayerID, in layers: [LayerState]) throws -> LayerState {
        try #require(layers.first { $0.id == id })
    }

    @Test("zero-origin-frame: the detail grows out of the top-left corner, the thumbnail stays put")
    func zeroOriginFrame() throws {
        let right = try Self.engine(.pop, [])
        let wrong = try Self.engine(.pop, [.zeroOriginFrame])
        let thumbnail = TransitionConfiguration.defaultOriginFrame(in: right.configuration.container)
        // At the start the detail is the thumbnail's size at its place — or a point at (0, 0).
        let start = try Self.layer(.to, in: wrong.animator.layers(at: 0))
        #expect(start.center == Point(x: 0, y: 0))
        #expect(start.transform.a == 0 && start.transform.d == 0)
        #expect(start.cornerRadius == 195)  // 20/0 drawn as half the shorter side
        #expect(try Self.layer(.to, in: right.animator.layers(at: 0)).center == thumbnail.center)
        // Part way, it is on its way from the corner: above and left of the right picture.
        let mid = try Self.layer(.to, in: wrong.animator.layers(at: 0.1))
        let midRight = try Self.layer(.to, in: right.animator.layers(at: 0.1))
        #expect(mid.center.x < midRight.center.x && mid.center.y < midRight.center.y)
        // The thumbnail itself is where it always is.
        #expect(try Self.layer(.thumbnail, in: wrong.animator.layers(at: 0)).center == thumbnail.center)
        // The end state is the same full-screen detail.
        #expect(wrong.animator.layers(at: 1) == right.animator.layers(at: 1))
        // Dismissing, it shrinks into the corner.
        let dismiss = try Self.engine(.pop, [.zeroOriginFrame]) { $0.operation = .dismiss }
        let late = try Self.layer(.from, in: dismiss.animator.layers(at: 0.999))
        #expect(abs(late.center.x) < 20 && abs(late.center.y) < 40)
        for layer in dismiss.animator.layers(at: 0.5) + wrong.animator.layers(at: 0.5) {
            #expect(layer.cornerRadius.isFinite && layer.center.x.isFinite)
        }
        // No effect on the other kinds.
        #expect(try Self.engine(.fade, [.zeroOriginFrame]).animator == (try Self.engine(.fade, [])).animator)
    }

    @Test("complete-on-cancel: a cancel reports finished, freezes at the release progress, the source view removed")
    func completeOnCancel() throws {
        var engine = try Self.engine(.push, [.completeOnCancel])
        let g = Gesture.pan(dx: 60, over: 0.3, hold: 0.2)  // 0.3, still: the threshold cancels
        let events = try engine.apply(g.events)
        let release = ReleaseDecision(outcome: .cancel, reason: .threshold, progress: 0.3, velocity: 0)
        #expect(events == [.began(progress: 0.05, grabbed: false), .released(release), .finished])
        #expect(engine.phase == .finished)
        #expect(engine.progress == 0.3)
        // Stuck: half-way, and nothing moves on later ticks. completeTransition(true) removed the
        // source view, as at any finish: the pushed screen alone, part way in.
        let frozen = engine.animator.layers(at: 0.3 * engine.configuration.duration).filter { $0.id != .from }
        #expect(engine.layers() == frozen)
        #expect(engine.layers().contains { $0.id == .to } && !engine.layers().contains { $0.id == .from })
        #expect(engine.advance(to: g.time + 5) == .none)
        #expect(engine.layers() == frozen)
        // A finish is unaffected.
        var finishing = try Self.engine(.push, [.completeOnCancel])
        _ = try finishing.apply(Gesture.pan(dx: 150, over: 0.3, hold: 0.2).events)
        #expect(finishing.phase == .finishing)
        // Where the end state keeps the source (the partial curl's page), it stays.
        var curl = try Self.engine(.partialCurl, [.completeOnCancel])
        _ = try curl.apply(g.events)
        #expect(curl.phase == .finished && curl.layers() == curl.animator.layers(at: 0.3 * curl.configuration.duration))
        // The next pan starts over with both screens, as after any finish.
        var again = Gesture(at: Point(x: 100, y: 420), time: g.time + 10)
        again.move(dx: 30, over: 0.1, steps: 6)
        _ = try engine.apply(again.events)
        #expect(engine.phase == .tracking && engine.layers().contains { $0.id == .from })
    }

    @Test("negative-completion-speed: plays back linearly at speed 1, then the end state flashes before the cancel")
    func negativeCompletionSpeed() throws {
        var engine = try Self.engine(.push, [.negativeCompletionSpeed]) {
            $0.completionSpeed = 3  // ignored by the layer clock
            $0.completionCurve = .timing(.easeIn)  // and so is the curve
        }
        let g = Gesture.pan(dx: 80, over: 0.3, hold: 0.2)  // 0.4, still: cancels
        _ = try engine.apply(g.events)
        let duration = engine.configuration.duration  // push: 0.5 s
        #expect(engine.phase == .cancelling)
        #expect(engine.completionEndTime == g.time + 0.4 * duration + Pitfall.modelValueFlash)
        // Linear in time at speed 1 on the timeline: progress 0.4 − elapsed/duration.
        _ = engine.advance(to: g.time + 0.1)
        #expect(abs(engine.progress - (0.4 - 0.1 / duration)) < 1e-12)
        // Past the start: progress 0, but every layer shows its model value, the end state.
        _ = engine.advance(to: g.time + 0.4 * duration + Pitfall.modelValueFlash / 2)
        #expect(engine.phase == .cancelling && engine.progress == 0)
        #expect(engine.layers() == engine.animator.layers(at: duration))
        // Then the cancel's cleanup: the exact start picture.
        let end = engine.advance(to: g.time + 0.4 * duration + Pitfall.modelValueFlash)
        #expect(end.events == [.cancelled])
        #expect(engine.layers() == (try Self.engine(.push, [])).layers())
        // The right cancel runs on the completion curve, and never shows the end state.
        var right = try Self.engine(.push, []) {
            $0.completionSpeed = 3; $0.completionCurve = .timing(.easeIn)
        }
        _ = try right.apply(g.events)
        #expect(right.completionEndTime == g.time + 0.4 * duration / 3)
        // A finish is unaffected.
        var finishing = try Self.engine(.push, [.negativeCompletionSpeed])
        _ = try finishing.apply(Gesture.pan(dx: 150, over: 0.3, hold: 0.2).events)
        #expect(finishing.completionEndTime == finishing.time + 0.25 * 0.5)
    }

    @Test("the flash is seen at 60 fps: exactly one frame shows the end state")
    func flashAtSixtyFPS() throws {
        var engine = try Self.engine(.fade, [.negativeCompletionSpeed])
        let g = Gesture.pan(dx: 70, over: 0.3, hold: 0.2)
        _ = try engine.apply(g.events)
        let frames = engine.runCompletion(from: g.time)
        let flashes = frames.filter {
            $0.phase == .cancelling && $0.layers == engine.animator.layers(at: engine.animator.duration)
        }
        #expect(flashes.count == 1)
        #expect(frames.last?.phase == .cancelled)
    }

    @Test("no-abs: a leftward pan never progresses; rightward is unchanged")
    func noAbs() throws {
        var wrong = try Self.engine(.push, [.noAbs])
        var right = try Self.engine(.push, [])
        var g = Gesture(at: Point(x: 300, y: 400))
        g.move(dx: -100, over: 0.3, steps: 18)
        g.hold(0.2)
        g.up()
        var progresses: [Double] = []
        for event in g.events.dropLast() {
            _ = try wrong.handle(event)
            _ = try right.handle(event)
            if wrong.phase == .tracking { progresses.append(wrong.progress) }
        }
        #expect(!progresses.isEmpty && progresses.allSatisfy { $0 == 0.01 })
        #expect(right.progress == 0.5)
        _ = try wrong.handle(g.events.last!)
        #expect(wrong.lastRelease?.outcome == .cancel && wrong.lastRelease?.progress == 0.01)
        // Rightward: the same as with abs.
        var a = try Self.engine(.push, [.noAbs])
        var b = try Self.engine(.push, [])
        let rightward = Gesture.pan(dx: 120, over: 0.3)
        #expect(try a.apply(rightward.events) == (try b.apply(rightward.events)))
        #expect(a.progress == b.progress)
    }

    @Test("pitfalls are off by default")
    func offByDefault() {
        #expect(TransitionConfiguration().pitfalls.isEmpty)
        #expect(TransitionConfiguration().rubberBand == nil)
        #expect(TransitionConfiguration().releaseRule == .threshold)
    }
}
