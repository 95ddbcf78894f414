import PropertyBased
import Testing

@testable import TransitionCore

/// Every number the engine puts out stays finite for any input it accepts, and a completion
/// ends within `TransitionConfiguration.longestAnimation` (plus one tick) of its start
/// (docs/ENGINE.md, "Input ranges and finite outputs").
@Suite("Finite outputs")
struct FiniteOutputTests {
    // MARK: - What "every number" means

    /// Every number a frame carries: what the server writes (progress, velocity, each layer's
    /// geometry, the 3-D matrix and its projected corners) and the engine time, which is −∞
    /// only before the first input ("no input yet"; the server stamps frames with its own clock).
    static func numbers(_ frame: Frame) -> [Double] {
        var out = [frame.progress, frame.velocity.x, frame.velocity.y]
        if frame.time != -.infinity { out.append(frame.time) }
        for layer in frame.layers {
            let t = layer.transform
            out += [layer.center.x, layer.center.y, layer.bounds.width, layer.bounds.height]
            out += [t.a, t.b, t.c, t.d, t.tx, t.ty, layer.cornerRadius, layer.opacity]
            if let transform3D = layer.transform3D {
                out += transform3D.components
                for corner in layer.projectedCorners() ?? [] { out += [corner.x, corner.y] }
            }
        }
        return out
    }

    static func numbers(_ events: [TransitionEvent]) -> [Double] {
        events.flatMap { event -> [Double] in
            switch event {
            case let .began(progress, _): return [progress]
            case let .released(decision): return [decision.progress, decision.velocity]
            case .played, .finished, .cancelled: return []
            case let .pausedOnCompletion(progress): return [progress]
            }
        }
    }

    static func allFinite(_ values: [Double]) -> Bool { values.allSatisfy(\.isFinite) }

    // MARK: - Hostile values

    /// A coordinate from a category (`pick`) and a uniform draw `u` in −1…1: ordinary screen
    /// positions, the whole accepted range, its exact edges, subnormal-tiny values, zero, and
    /// values beyond the limit (which must be refused).
    static func coordinate(_ pick: Int, _ u: Double) -> Double {
        switch pick {
        case 0: return 200 + u * 300
        case 1: return u * PointerEvent.coordinateLimit
        case 2: return u < 0 ? -PointerEvent.coordinateLimit : PointerEvent.coordinateLimit
        case 3: return u * 1e-300
        case 4: return u < 0 ? -Double.leastNonzeroMagnitude : .leastNonzeroMagnitude
        case 5: return 0
        // Beyond: refused (two of opposite signs differ by ∞).
        case 6: return (u < 0 ? -1 : 1) * (1e308 + abs(u) * 7e307)
        default: return PointerEvent.coordinateLimit.nextUp * (u < 0 ? -1 : 1)  // just beyond: refused
        }
    }

    /// A time step (s) from a category and a uniform draw `u` in 0…1: none (two samples at
    /// one instant), the tiniest, a picosecond, a frame, a long pause, a huge jump, backwards.
    static func step(_ pick: Int, _ u: Double) -> Double {
        switch pick {
        case 0: return 0
        case 1: return .leastNonzeroMagnitude
        case 2: return 1e-12
        case 3: return u * 0.016
        case 4: return 0.05 + u
        case 5: return 1e6 * u
        case 6: return -u  // backwards (refused unless 0)
        default: return 0.016
        }
    }

    /// Engine time axes to start on: near 0 (where subnormal steps exist), seconds, epoch seconds.
    static let starts: [Double] = [0, 1e-300, 1_000, 1.7e9]

    typealias Step = (phase: Int, xPick: Int, x: Double, yPick: Int, y: Double, dtPick: Int, dt: Double)

    static let steps = zip(
        Gen.int(in: 0...11), Gen.int(in: 0...7), Gen.double(in: -1...1), Gen.int(in: 0...7),
        Gen.double(in: -1...1), Gen.int(in: 0...7), Gen.double(in: 0...1)
    ).array(of: 1...40)

    /// One index per configuration choice (see `configuration(_:)`).
    static let choices = Gen.int(in: 0...11).array(of: 16)

    /// A configuration at the edges of every documented range (and a few ordinary values).
    static func configuration(_ c: [Int]) throws -> TransitionConfiguration {
        func pick<T>(_ i: Int, _ options: [T]) -> T { options[c[i] % options.count] }
        var configuration = TransitionConfiguration(kind: pick(0, TransitionKind.allCases))
        configuration.operation = pick(1, [.present, .dismiss])
        configuration.duration = pick(2, [0.01, 60, 0.5])
        configuration.distance = pick(3, [1, 10_000, 200])
        configuration.pan = PanSettings(
            slop: pick(4, [0, 100, 10]), axis: pick(5, PanAxis.allCases), direction: pick(6, PanDirection.allCases))
        (configuration.clampLower, configuration.clampUpper) = pick(7, [(0.0, 1.0), (0.01, 0.99), (0.5, 0.5000001)])
        configuration.threshold = pick(8, [1e-9, 0.5, 1 - 1e-9])
        configuration.completionSpeed = pick(9, [0.01, 100, 1])
        configuration.completionCurve = pick(
            10,
            [
                .spring, .timing(.linear), .timing(.cubicBezier(CubicBezier(x1: 0, y1: -5, x2: 1, y2: 5))),
                .timing(.cubicBezier(CubicBezier(x1: 1, y1: 5, x2: 0, y2: -5))), .timing(.easeInEaseOut),
            ])
        configuration.springDamping = pick(11, [0.05, 10, 1, 0.4])
        configuration.springInitialVelocity = pick(12, [-100, 100, 0])
        configuration.flingVelocity = pick(13, [nil, 1, 100_000])
        configuration.container = pick(
            14,
            [
                Size(width: 100, height: 100), Size(width: 4000, height: 4000), Size(width: 4000, height: 100),
                Size(width: 390, height: 844),
            ])
        configuration.originFrame = pick(
            15, [nil, Rect(x: 0, y: 0, width: 1, height: 1), Rect(x: 0, y: 0, width: 100, height: 100)])
        try configuration.validate()
        return configuration
    }

    // MARK: - Properties

    /// Random gestures of hostile numbers on random edge configurations: every event is either
    /// refused with the engine unchanged, or applied with every output finite; ticks keep it
    /// finite; and a completion rests by the first tick after `longestAnimation` from its start.
    @Test func everyAcceptedInputKeepsEveryOutputFiniteAndTheCompletionEnds() async {
        await propertyCheck(count: 300, input: Self.steps, Self.choices, Gen.int(in: 0...3)) { steps, choices, start in
            let configuration = try! Self.configuration(choices)
            var engine = try! InteractiveTransition(configuration: configuration)
            var time = Self.starts[start]
            var animationStart: Double?
            for raw in steps {
                let step = raw as Step
                time += Self.step(step.dtPick, step.dt)
                let phase: PointerEvent.Phase
                let pointer: Int
                switch step.phase {
                case 0: (phase, pointer) = (.down, 0)
                case 1: (phase, pointer) = (.up, 0)
                case 2: (phase, pointer) = (.cancel, 0)
                case 3: (phase, pointer) = (.down, 1)
                case 4: (phase, pointer) = (.up, 1)
                default: (phase, pointer) = (.move, 0)
                }
                let event = PointerEvent(
                    phase, x: Self.coordinate(step.xPick, step.x), y: Self.coordinate(step.yPick, step.y),
                    time: time, pointerID: pointer)
                let before = engine
                do {
                    let reaction = try engine.handle(event)
                    #expect(event.isWithinCoordinateLimit, "accepted \(event)")
                    #expect(Self.allFinite(Self.numbers(reaction.events)), "\(reaction.events)")
                    // A release's completion lasts |target − progress| × duration / speed, capped
                    // (at most longestAnimation, as |target − progress| ≤ 1); zero-length ones end at once.
                    for case let .released(decision) in reaction.events where engine.phase.isAnimating {
                        let target: Double = decision.outcome == .finish ? 1 : 0
                        let length = configuration.displayDuration(
                            abs(target - decision.progress) * configuration.duration / configuration.completionSpeed)
                        #expect(engine.completionEndTime == engine.time + length)
                    }
                } catch {
                    #expect(engine == before, "a refused \(event) changed the engine")
                }
                #expect(Self.allFinite(Self.numbers(engine.frame())), "after \(event): \(engine.frame())")
                #expect(max(abs(engine.velocity.x), abs(engine.velocity.y)) <= VelocityTracker.maximumSpeed)
                if engine.phase.isAnimating,
                    !before.phase.isAnimating || before.completionEndTime != engine.completionEndTime
                {
                    animationStart = engine.time
                }
                if let end = engine.completionEndTime, let animationStart {
                    // Rounding is monotonic: a duration ≤ the bound ends no later in floating point.
                    #expect(end <= animationStart + configuration.longestAnimation)
                }
            }
            guard engine.phase.isAnimating, animationStart != nil else { return }
            // Tick at a rate fine enough to see the curve and coarse enough to stay quick. The
            // completion started at or before `base`, so it rests within the bound of it.
            let base = engine.time
            let tick = max(1.0 / 60, configuration.longestAnimation / 200)
            let limit = Int((configuration.longestAnimation / tick).rounded(.up)) + 1
            var n = 0
            while engine.phase.isAnimating && n < limit + 1 {
                n += 1
                _ = engine.advance(to: base + Double(n) * tick)
                #expect(Self.allFinite(Self.numbers(engine.frame())))
            }
            #expect(engine.phase.isAtRest, "still \(engine.phase) after \(n) ticks of \(tick) s")
            #expect(n <= limit)
        }
    }

    // MARK: - The cases the issue names

    @Test("a coordinate beyond ±1,000,000 pt is refused and changes nothing; the edges are accepted")
    func coordinateLimit() throws {
        var engine = try InteractiveTransition(configuration: TransitionConfiguration(kind: .pop))
        _ = try engine.handle(PointerEvent(.down, x: 0, y: 0, time: 0))
        let before = engine
        #expect(throws: InputError.coordinateOutOfRange(x: 1e308, y: 400)) {
            try engine.handle(PointerEvent(.move, x: 1e308, y: 400, time: 0.016))
        }
        #expect(throws: InputError.coordinateOutOfRange(x: 0, y: -1_000_000.0000001)) {
            try engine.handle(PointerEvent(.move, x: 0, y: -1_000_000.0000001, time: 0.016))
        }
        #expect(engine == before)
        #expect(InputError.coordinateOutOfRange(x: 1e308, y: 0).code == "invalid-field")
        // From one edge to the other within a picosecond, after a pause (so the estimate uses
        // only these two samples): the fastest the engine can be asked to go.
        _ = try engine.handle(PointerEvent(.move, x: -1_000_000, y: 1_000_000, time: 0.2))
        _ = try engine.handle(PointerEvent(.move, x: 1_000_000, y: -1_000_000, time: 0.2 + 1e-12))
        #expect(engine.phase == .tracking)
        #expect(Self.allFinite(Self.numbers(engine.frame())))
        #expect(engine.velocity == Point(x: VelocityTracker.maximumSpeed, y: -VelocityTracker.maximumSpeed))
        let released = try engine.handle(PointerEvent(.up, x: 1_000_000, y: -1_000_000, time: 0.2 + 2e-12))
        #expect(Self.allFinite(Self.numbers(released.events)))
        #expect(engine.phase == .finishing)
    }

    @Test("velocity: samples at one instant give zero; a tiny step is capped, keeping its direction")
    func velocityCap() {
        var tracker = VelocityTracker()
        tracker.add(Point(x: 0, y: 0), at: 5)
        tracker.add(Point(x: 1_000_000, y: 0), at: 5)
        #expect(tracker.velocity == .zero)

        tracker.reset()
        tracker.add(Point(x: 0, y: 0), at: 0)
        tracker.add(Point(x: 1_000, y: 500), at: 1e-9)  // 1e12 pt/s, capped
        #expect(tracker.velocity == Point(x: 1_000_000, y: 500_000))

        // On a time axis at 0 the steps can be subnormal: the slope would be ~1e168 pt/s or,
        // divided naively, infinite.
        tracker.reset()
        tracker.add(Point(x: -1_000_000, y: 0), at: 0)
        tracker.add(Point(x: 1_000_000, y: 0), at: 1e-161)
        tracker.add(Point(x: 1_000_000, y: 1), at: 2e-161)
        let v = tracker.velocity
        #expect(v.isFinite && abs(v.x) <= VelocityTracker.maximumSpeed && abs(v.y) <= VelocityTracker.maximumSpeed)
        #expect(v.x == VelocityTracker.maximumSpeed)

        // Ordinary speeds are untouched (and a fling at the largest setting is reachable).
        tracker.reset()
        tracker.add(Point(x: 0, y: 0), at: 0)
        tracker.add(Point(x: 2_000, y: 0), at: 0.01)
        #expect(abs(tracker.velocity.x - 200_000) < 1e-6)
    }

    /// Progress 0.9999999 left, released at ~1,000 progress/s: the normalised velocity is 1e10,
    /// clamped to 100. And a fling back that cancels from 0.2 with the slowest speed: 1,200 s.
    static let extremeReleases: [[PointerEvent]] = [
        [
            PointerEvent(.down, x: 0, y: 0, time: 0), PointerEvent(.move, x: 0.9999999, y: 0, time: 1e-3),
            PointerEvent(.up, x: 0.9999999, y: 0, time: 2e-3),
        ],
        [
            PointerEvent(.down, x: 0, y: 0, time: 0), PointerEvent(.move, x: 0.5, y: 0, time: 0.1),
            PointerEvent(.move, x: 0.9, y: 0, time: 0.2), PointerEvent(.move, x: 0.2, y: 0, time: 0.201),
            PointerEvent(.up, x: 0.2, y: 0, time: 0.201),
        ],
    ]

    @Test(
        "a spring completion seeded with an extreme velocity stays finite and ends on time",
        arguments: [0.05, 0.4, 1, 10])
    func springCompletionAtTheEdges(damping: Double) throws {
        for speed in [0.01, 1, 100] {
            for (index, gesture) in Self.extremeReleases.enumerated() {
                var configuration = TransitionConfiguration(kind: .pop)
                configuration.completionCurve = .spring
                configuration.springDamping = damping
                configuration.completionDamping = damping
                configuration.completionSpeed = speed
                configuration.duration = speed == 100 ? 0.01 : 60
                configuration.distance = 1
                configuration.pan.slop = 0
                configuration.clampLower = 0
                configuration.clampUpper = 1
                configuration.flingVelocity = 1
                var engine = try InteractiveTransition(configuration: configuration)
                _ = try engine.apply(gesture)
                #expect(engine.phase == (index == 0 ? .finishing : .cancelling))
                let released = try #require(engine.lastRelease)
                #expect(abs(released.velocity) > 100)  // the spring gets the clamped 100
                let start = gesture.last!.time
                let end = try #require(engine.completionEndTime)
                #expect(end <= start + configuration.longestAnimation)
                var t = start
                let tick = max(1.0 / 60, configuration.longestAnimation / 100)
                while engine.phase.isAnimating && t <= end + tick {
                    t += tick
                    _ = engine.advance(to: t)
                    #expect(Self.allFinite(Self.numbers(engine.frame())))
                    #expect((0...1).contains(engine.progress))
                }
                #expect(engine.phase == (index == 0 ? .finished : .cancelled))
            }
        }
    }

    @Test("SpringTiming at the edges: finite everywhere, exactly 1 at its duration")
    func springTimingEdges() {
        for damping in [0.05, 1, 10] {
            for velocity in [-100.0, 0, 100] {
                for duration in [1e-9, 0.01, 60, TransitionConfiguration.longestPossibleAnimation] {
                    let timing = SpringTiming(dampingRatio: damping, duration: duration, initialVelocity: velocity)
                    #expect(timing.spring.naturalFrequency.isFinite && timing.spring.naturalFrequency > 0)
                    for k in 0...64 {
                        #expect(timing.value(at: duration * Double(k) / 64).isFinite)
                    }
                    #expect(timing.value(at: duration) == 1)
                }
            }
        }
    }

    @Test(
        "play at every configuration edge: finite frames, at rest within longestAnimation plus a tick",
        arguments: TransitionKind.allCases)
    func playAtTheEdges(kind: TransitionKind) throws {
        for (duration, container, damping, velocity) in [
            (0.01, Size(width: 100, height: 100), 0.05, -100.0),
            (60, Size(width: 4000, height: 4000), 10, 100),
            (0.5, Size(width: 4000, height: 100), 0.05, 100),
        ] {
            var configuration = TransitionConfiguration(kind: kind)
            configuration.duration = duration
            configuration.container = container
            configuration.springDamping = damping
            configuration.springInitialVelocity = velocity
            configuration.originFrame = Rect(x: container.width - 1, y: container.height - 1, width: 1, height: 1)
            for operation in [TransitionOperation.present, .dismiss] {
                configuration.operation = operation
                var engine = try InteractiveTransition(configuration: configuration)
                _ = try engine.play(at: 1_000)
                let fps = 1.0  // the slowest frame rate: its ticks are the coarsest
                var n = 0
                while engine.phase.isAnimating {
                    n += 1
                    _ = engine.advance(to: 1_000 + Double(n) / fps)
                    #expect(Self.allFinite(Self.numbers(engine.frame())))
                }
                // The whole timeline, between the ticks too.
                for k in 0...64 {
                    let layers = engine.animator.layers(at: duration * Double(k) / 64)
                    #expect(
                        Self.allFinite(
                            Self.numbers(
                                Frame(phase: .finishing, progress: 0, time: 0, velocity: .zero, layers: layers))))
                }
                #expect(Double(n) <= configuration.longestAnimation * fps + 1)
                #expect(engine.phase == .finished)
            }
        }
    }
}
