@testable import TransitionCore

/// Builds scripted pointer-event lists for tests.
struct Gesture {
    private(set) var events: [PointerEvent] = []
    private(set) var time: Double
    private(set) var position: Point
    var pointerID = 0

    init(at start: Point = Point(x: 100, y: 400), time: Double = 0) {
        self.time = time
        self.position = start
        events.append(PointerEvent(.down, x: start.x, y: start.y, time: time, pointerID: pointerID))
    }

    /// Moves by (dx, dy) in `steps` evenly spaced samples over `duration` seconds.
    mutating func move(dx: Double, dy: Double = 0, over duration: Double, steps: Int) {
        let origin = position
        let start = time
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            position = Point(x: origin.x + dx * f, y: origin.y + dy * f)
            time = start + duration * f
            events.append(PointerEvent(.move, x: position.x, y: position.y, time: time, pointerID: pointerID))
        }
    }

    mutating func hold(_ duration: Double) { time += duration }

    mutating func up() {
        events.append(PointerEvent(.up, x: position.x, y: position.y, time: time, pointerID: pointerID))
    }

    mutating func cancel() {
        events.append(PointerEvent(.cancel, x: position.x, y: position.y, time: time, pointerID: pointerID))
    }

    /// A pan of `dx` points over `duration` at 60 Hz, released at once (or after `hold`).
    static func pan(dx: Double, dy: Double = 0, over duration: Double = 0.25, hold: Double = 0, at time: Double = 0)
        -> Gesture
    {
        var g = Gesture(time: time)
        g.move(dx: dx, dy: dy, over: duration, steps: max(1, Int((duration * 60).rounded())))
        g.hold(hold)
        g.up()
        return g
    }
}

extension InteractiveTransition {
    /// Applies every event, returning all transition events in order.
    mutating func apply(_ events: [PointerEvent]) throws -> [TransitionEvent] {
        var out: [TransitionEvent] = []
        for event in events { out += try handle(event).events }
        return out
    }

    /// Ticks at `fps` from `start` until the transition rests (or `limit` ticks), returning the frames.
    mutating func runCompletion(from start: Double, fps: Double = 60, limit: Int = 10_000) -> [Frame] {
        var frames: [Frame] = []
        var n = 1
        while phase.isAnimating && n <= limit {
            if advance(to: start + Double(n) / fps).frame { frames.append(frame()) }
            n += 1
        }
        return frames
    }
}
