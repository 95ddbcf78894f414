import Testing

@testable import TransitionCore

/// What is already in the list: another animator's picture, kept in front of what is appended.
private let kept = Animator(configuration: TransitionConfiguration(kind: .reveal)).layers(at: 1)

/// Every kind both ways, and the pop's zero-origin pitfall (its own geometry).
private let configurations: [TransitionConfiguration] =
    TransitionKind.allCases.flatMap { kind in
        [TransitionOperation.present, .dismiss].map { operation in
            var configuration = TransitionConfiguration(kind: kind)
            configuration.operation = operation
            return configuration
        }
    } + [zeroOrigin]

private var zeroOrigin: TransitionConfiguration {
    var configuration = TransitionConfiguration(kind: .pop)
    configuration.pitfalls = [.zeroOriginFrame]
    return configuration
}

/// `layers(at:into:)` appends exactly `layers(at:)` (a frame keeps its list between frames and
/// writes each state into it: docs/PERFORMANCE.md "Allocations").
@Suite struct AnimatorAppendTests {
    @Test func appendsTheLayersAtEveryTime() {
        for configuration in configurations {
            let animator = Animator(configuration: configuration)
            let d = animator.duration
            for time in [-1, 0, d * 0.25, d / 2, d * 0.9, d.nextDown, d, d * 2] {
                var layers = kept
                animator.layers(at: time, into: &layers)
                #expect(layers == kept + animator.layers(at: time), "\(configuration.kind) \(time)")
                #expect(!animator.layers(at: time).isEmpty)
            }
        }
    }
}

/// `InteractiveTransition.layers(into:)` appends exactly `layers()`, and `frame(reusing:)` is
/// `frame()`, in every phase, the pitfalls' branches and the zoom's drag included.
@Suite struct InteractiveTransitionAppendTests {
    /// The layers before they were appended into a list: the idle and cancelled pictures
    /// without the destination and the masks it carries, by a set, as they were made.
    static func removingDestination(_ engine: InteractiveTransition) -> [LayerState] {
        let layers = engine.animator.layers(at: min(engine.timelineTime, engine.animator.duration.nextDown))
        let masks = Set(layers.compactMap { $0.id == .to ? $0.mask : nil })
        return layers.filter { $0.id != .to && !masks.contains($0.id) }
    }

    static func check(_ engine: InteractiveTransition, _ phases: inout Set<TransitionPhase>) {
        phases.insert(engine.phase)
        var layers = kept
        engine.layers(into: &layers)
        let label = "\(engine.configuration.kind) \(engine.configuration.operation) \(engine.phase)"
        #expect(layers == kept + engine.layers(), "\(label)")
        #expect(engine.frame(reusing: kept) == engine.frame(), "\(label)")
        if engine.phase == .idle || engine.phase == .cancelled {
            #expect(engine.layers() == removingDestination(engine), "\(label)")
        }
    }

    /// Every event and every tick of `gesture` and the completion after it, checked.
    static func walk(
        _ configuration: TransitionConfiguration, _ gesture: Gesture, _ phases: inout Set<TransitionPhase>
    ) throws {
        var engine = try InteractiveTransition(configuration: configuration)
        check(engine, &phases)
        for event in gesture.events {
            _ = try engine.handle(event)
            check(engine, &phases)
        }
        var n = 1
        while engine.phase.isAnimating && n < 1_000 {
            _ = engine.advance(to: gesture.time + Double(n) / 60)
            check(engine, &phases)
            n += 1
        }
        check(engine, &phases)
    }

    @Test func appendsTheLayersInEveryPhase() throws {
        var phases: Set<TransitionPhase> = []
        for configuration in configurations {
            try Self.walk(configuration, Gesture.pan(dx: 350, over: 0.2), &phases)  // finishes
            try Self.walk(configuration, Gesture.pan(dx: 40, over: 0.3, hold: 0.2), &phases)  // cancels
        }
        #expect(phases.isSuperset(of: [.idle, .tracking, .finishing, .finished, .cancelling, .cancelled]))
    }

    @Test func appendsThePitfallsPictures() throws {
        var phases: Set<TransitionPhase> = []
        for kind in [TransitionKind.push, .partialCurl, .reveal] {
            var configuration = TransitionConfiguration(kind: kind)
            configuration.pitfalls = [.completeOnCancel]
            try Self.walk(configuration, Gesture.pan(dx: 60, over: 0.3, hold: 0.2), &phases)
            configuration.pitfalls = [.negativeCompletionSpeed]
            try Self.walk(configuration, Gesture.pan(dx: 60, over: 0.3, hold: 0.2), &phases)
        }
        #expect(phases.isSuperset(of: [.finished, .cancelling, .cancelled]))
    }

    /// The zoom dismissal's drag and settle draw the card themselves (`zoomLayers(into:)`).
    @Test func appendsTheZoomDrag() throws {
        let configuration = try ZoomDismissReleaseTests.engine().configuration
        var phases: Set<TransitionPhase> = []
        for (dx, dy) in [(100.0, 250.0), (10, 60)] {  // finishes, cancels
            var g = Gesture(at: Point(x: 200, y: 300))
            g.move(dx: dx, dy: dy, over: 0.4, steps: 24)
            g.hold(0.2)
            g.up()
            try Self.walk(configuration, g, &phases)
            var engine = try InteractiveTransition(configuration: configuration)
            _ = try engine.apply(Array(g.events.dropLast()))
            #expect(engine.zoomDrag != nil && engine.phase == .tracking)
            _ = try engine.handle(try #require(g.events.last))
            #expect(engine.zoomCard() != nil && engine.phase.isAnimating)
        }
        #expect(phases.isSuperset(of: [.idle, .tracking, .finishing, .finished, .cancelling, .cancelled]))
    }
}
