// Release-mode timing loop for the engine's hot path: applying one pointer event and producing
// one frame of layer states (the per-input cost the server pays), and one completion tick plus
// its frame. Prints the median and p99 of per-operation times over many batches. Then the frame
// encoder: a pointer message through the session with and without its frame
// encoded, per kind, and the bytes of its delta and full frame.
//
//     swift run -c release CoreBenchmark
//
// A plain loop rather than ordo-one/benchmark: the figure we need is one median, and the
// package's jemalloc/trait setup would add minutes to every CI build.
import Foundation
import SandboxSession
import TransitionCore

let batches = 400
let perBatch = 2_000

/// Runs `body` `perBatch` times per batch and returns per-operation nanoseconds, sorted.
func measure(_ body: (Int) -> Double) -> (samples: [Double], checksum: Double) {
    let clock = ContinuousClock()
    var checksum = 0.0
    var samples: [Double] = []
    var i = 0
    for _ in 0..<batches {
        let start = clock.now
        for _ in 0..<perBatch {
            checksum += body(i)
            i += 1
        }
        let elapsed = clock.now - start
        let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        samples.append(ns / Double(perBatch))
    }
    return (samples.sorted(), checksum)
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

print("TransitionCore benchmark: \(batches) batches × \(perBatch) operations, release build")
print("kind              pointer move + frame (median / p99)    tick + frame (median / p99)")
var failures = 0
for kind in TransitionKind.allCases {
    var configuration = TransitionConfiguration(kind: kind)
    configuration.distance = 200
    let base = try! InteractiveTransition(configuration: configuration)

    // One long pan that sweeps back and forth, so progress keeps changing and the clamp is hit.
    var tracking = base
    _ = try! tracking.handle(PointerEvent(.down, x: 100, y: 400, time: 0))
    let move = measure { i in
        let t = Double(i + 1) * 0.001
        let x = 100 + 150 * (1 + sin(Double(i) * 0.01)) + 11
        _ = try! tracking.handle(PointerEvent(.move, x: x, y: 400, time: t))
        let frame = tracking.frame()
        return frame.progress + Double(frame.layers.count)
    }

    // A completion ticked at 1 kHz; re-released whenever it reaches rest.
    var animating = base
    var now = 0.0
    func release(_ engine: inout InteractiveTransition) {
        _ = try! engine.handle(PointerEvent(.down, x: 0, y: 0, time: now))
        _ = try! engine.handle(PointerEvent(.move, x: 150, y: 0, time: now + 0.1))
        _ = try! engine.handle(PointerEvent(.up, x: 150, y: 0, time: now + 0.3))
        now += 0.3
    }
    release(&animating)
    let tick = measure { _ in
        now += 0.001
        if !animating.advance(to: now).frame { release(&animating) }
        let frame = animating.frame()
        return frame.progress + Double(frame.layers.count)
    }

    let moveMedian = percentile(move.samples, 0.5)
    let line = [
        kind.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0),
        "\(format(moveMedian)) / \(format(percentile(move.samples, 0.99)))".padding(
            toLength: 39, withPad: " ", startingAt: 0),
        "\(format(percentile(tick.samples, 0.5))) / \(format(percentile(tick.samples, 0.99)))",
    ].joined()
    print(line + (move.checksum.isNaN || tick.checksum.isNaN ? "  (NaN!)" : ""))
    if moveMedian > 2_000 { failures += 1 }
}
print(
    failures == 0
        ? "goal ≤ 2 µs median per pointer event + frame: met" : "goal ≤ 2 µs median: missed for \(failures) kinds")

func format(_ ns: Double) -> String {
    ns >= 1000 ? "\(Double(Int(ns / 10)) / 100) µs" : "\(Int(ns)) ns"
}

// The release-time spring fit of `completionCurve: "spring"` (`SpringTiming` with a velocity):
// once per release, so a client that grabs and releases fast pays it per message. Median and
// max µs per fit over 7 batches, at the allowed dampings and velocities (remaining distances
// per second, clamped to ±100) for a short and the longest completion.
print("")
print("spring fit (SpringTiming with a release velocity), µs per fit: median / max of 7 batches")
let fitVelocities = [0.01, 1, 100, -100]
print(
    "ζ      duration   " + fitVelocities.map { "v \($0)".padding(toLength: 18, withPad: " ", startingAt: 0) }.joined())
var fitChecksum = 0.0
var worstFit = 0.0
for zeta in [0.05, 0.3, 1, 10] {
    for duration in [0.5, 6000] {
        var line =
            "\(zeta)".padding(toLength: 7, withPad: " ", startingAt: 0)
            + "\(duration) s".padding(toLength: 11, withPad: " ", startingAt: 0)
        for velocity in fitVelocities {
            let clock = ContinuousClock()
            var batches: [Double] = []
            let perFitBatch = 40
            for _ in 0..<7 {
                let start = clock.now
                for i in 0..<perFitBatch {
                    // a slightly different velocity each time, so nothing is hoisted or cached
                    let timing = SpringTiming(
                        dampingRatio: zeta, duration: duration, initialVelocity: velocity * (1 + Double(i) * 1e-6))
                    fitChecksum += timing.spring.naturalFrequency
                }
                let elapsed = clock.now - start
                let us = (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
                batches.append(us / Double(perFitBatch))
            }
            batches.sort()
            worstFit = max(worstFit, batches[batches.count - 1])
            line += "\(Double(Int(batches[3] * 10)) / 10) / \(Double(Int(batches[6] * 10)) / 10)"
                .padding(toLength: 18, withPad: " ", startingAt: 0)
        }
        print(line)
    }
}
print("slowest fit: \(Double(Int(worstFit * 10)) / 10) µs" + (fitChecksum.isFinite ? "" : "  (non-finite ω₀!)"))

// The frame encoder (docs/PROTOCOL.md "Delta frames"): one pointer `move` message
// through a session (parse, engine) and then its frame — parts, delta, and the full frame
// every connection lacking the base would get — against the same message without a frame. The
// difference is the encoder's cost per state; the bytes are the wire's.
print("")
print("frame encoder, per pointer message: median of \(batches) batches × \(perBatch)")
print("kind              message only   + parts + delta   + full     delta bytes   full bytes")
let driver = ConnectionID(number: 1)
for kind in TransitionKind.allCases {
    func session() -> SessionHub {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        hub.receive(
            Array(#"{"type":"configure","transition":"\#(kind.rawValue)","distance":200}"#.utf8), from: driver, at: 0,
            into: &actions)
        hub.receive(
            Array(#"{"type":"pointer","phase":"down","x":100,"y":400,"t":0,"seq":1}"#.utf8), from: driver, at: 0,
            into: &actions)
        return hub
    }
    // The messages, made beforehand: a pan sweeping back and forth, as the engine's loop above.
    let count = batches * perBatch
    let messages: [[UInt8]] = (0..<count).map { i in
        let x = 100 + 150 * (1 + sin(Double(i) * 0.01)) + 11
        return Array(#"{"type":"pointer","phase":"move","x":\#(x),"y":400,"t":\#(Double(i + 1)),"seq":\#(i + 2)}"#.utf8)
    }
    var actions: [SessionAction] = []
    actions.reserveCapacity(16)
    func run(encode: Int) -> (median: Double, delta: Double, full: Double) {
        var hub = session()
        var cache = FrameCache(for: hub)
        var deltaBytes = 0, fullBytes = 0, frames = 0
        let result = measure { i in
            actions.removeAll(keepingCapacity: true)
            let now = Double(i + 1) * 0.001
            hub.receive(messages[i], from: driver, at: now, into: &actions)
            guard encode > 0, let frame = cache.frame(for: driver, in: hub, now: now) else {
                return Double(actions.count)
            }
            frames += 1
            deltaBytes += frame.delta?.payloadCount ?? 0
            if encode > 1 { fullBytes += frame.full.payloadCount }
            return Double(frame.number)
        }
        let n = Double(max(frames, 1))
        return (percentile(result.samples, 0.5), Double(deltaBytes) / n, Double(fullBytes) / n)
    }
    let plain = run(encode: 0)
    let delta = run(encode: 1)
    let full = run(encode: 2)
    print(
        [
            kind.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0),
            format(plain.median).padding(toLength: 15, withPad: " ", startingAt: 0),
            "+\(format(delta.median - plain.median))".padding(toLength: 18, withPad: " ", startingAt: 0),
            "+\(format(full.median - delta.median))".padding(toLength: 11, withPad: " ", startingAt: 0),
            "\(Int(delta.delta))".padding(toLength: 14, withPad: " ", startingAt: 0),
            "\(Int(full.full))",
        ].joined())
}
