import PropertyBased
import Testing

@testable import TransitionCore

/// Random gestures against the engine's invariants.
@Suite("Properties")
struct PropertyTests {
    /// A random pan: displacements per 16 ms step, a hold before release, the kind and curve.
    static let steps = Gen.double(in: -40...40).array(of: 1...40)
    static let kinds = Gen.int(in: 0...(TransitionKind.allCases.count - 1))
    static let holds = Gen.double(in: 0...0.2)

    static func engine(kind: Int, curve: TimingCurve = .easeInEaseOut) throws -> InteractiveTransition {
        var configuration = TransitionConfiguration(kind: TransitionKind.allCases[kind])
        configuration.completionCurve = .timing(curve)
        return try InteractiveTransition(configuration: configuration)
    }

    static func gesture(_ steps: [Double], hold: Double) -> [PointerEvent] {
        var events = [PointerEvent(.down, x: 200, y: 400, time: 0)]
        var x = 200.0
        for (i, dx) in steps.enumerated() {
            x += dx
            events.append(PointerEvent(.move, x: x, y: 400, time: Double(i + 1) * 0.016))
        }
        events.append(PointerEvent(.up, x: x, y: 400, time: Double(steps.count) * 0.016 + hold))
        return events
    }

    @Test func progressStaysWithinTheClampWhileTracking() async {
        await propertyCheck(count: 200, input: Self.steps, Self.kinds) { steps, kind in
            var engine = try! Self.engine(kind: kind)
            for event in Self.gesture(steps, hold: 0).dropLast() {
                _ = try! engine.handle(event)
                if engine.phase == .tracking {
                    #expect(engine.progress >= 0.01 && engine.progress <= 0.99)
                } else {
                    #expect(engine.progress == 0)
                }
            }
        }
    }

    @Test func completionIsMonotonicAndEndsOnTheExactState() async {
        await propertyCheck(count: 200, input: Self.steps, Self.kinds, Self.holds) { steps, kind, hold in
            var engine = try! Self.engine(kind: kind)
            let events = Self.gesture(steps, hold: hold)
            _ = try! engine.apply(events)
            guard engine.phase.isAnimating else {
                #expect(engine.phase.isAtRest)  // the pan never began (inside the slop)
                return
            }
            let finishing = engine.phase == .finishing
            let frames = engine.runCompletion(from: events.last!.time)
            for (a, b) in zip(frames, frames.dropFirst()) {
                #expect(finishing ? a.progress <= b.progress : a.progress >= b.progress)
            }
            let last = frames.last!
            #expect(last.phase == (finishing ? .finished : .cancelled))
            #expect(last.progress == (finishing ? 1 : 0))
            // Finished: the animator's end state. Cancelled: exactly the picture before the
            // transition started (a fresh engine's idle layers, without the destination).
            let idle = try! Self.engine(kind: kind).layers()
            #expect(last.layers == (finishing ? engine.animator.layers(at: engine.configuration.duration) : idle))
        }
    }

    @Test func twoRunsOfTheSameEventsAreIdentical() async {
        await propertyCheck(count: 100, input: Self.steps, Self.kinds, Self.holds) { steps, kind, hold in
            func run() -> (InteractiveTransition, [Frame]) {
                var engine = try! Self.engine(kind: kind, curve: .default)
                var frames: [Frame] = []
                let events = Self.gesture(steps, hold: hold)
                for event in events {
                    _ = try! engine.handle(event)
                    frames.append(engine.frame())
                }
                frames += engine.runCompletion(from: events.last!.time, fps: 120)
                return (engine, frames)
            }
            let (a, framesA) = run()
            let (b, framesB) = run()
            #expect(a == b)
            #expect(framesA == framesB)
        }
    }
}
