import Foundation
import SandboxSession
import Testing

@testable import SandboxTools

/// The release-rule, rubber-band, pitfall and property-animator example scripts, replayed in-process: each passes its expectations, and its frames
/// show the picture it is about (the trace, as the server sent it).
@Suite("Release rule and pitfall scripts")
struct ReleaseRuleScriptTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/scripts")

    static func replay(_ name: String) throws -> (ReplayReport, [JSONValue]) {
        let script = try PanScript.load(path: examples.appendingPathComponent("\(name).json").path)
        let report = try ScriptRunner.runLocal(script, trace: true)
        #expect(report.failures.isEmpty, "\(name): \(report.failures)")
        // The trace is the wire: deltas, assembled here into whole frames as a client does.
        var assembler = FrameAssembler()
        let frames = try report.traceLines.map { try assembler.apply(JSONValue.decode(Data($0.utf8)))! }
        return (report, frames)
    }

    static func tracking(_ frames: [JSONValue]) -> [Double] {
        frames.filter { $0["phase"] == .string("tracking") }.compactMap { $0["progress"]?.number }
    }

    static func layer(_ id: String, in frame: JSONValue) -> JSONValue? {
        guard case .array(let layers)? = frame["layers"] else { return nil }
        return layers.first { $0["id"] == .string(id) }
    }

    @Test(
        "every issue-14 example passes",
        arguments: [
            "projection-flick-finishes", "projection-fast-cancels", "rubber-band-past-clamp",
            "pitfall-zero-origin-frame",
            "pitfall-complete-on-cancel", "pitfall-negative-completion-speed", "pitfall-no-abs",
            "spring-completion-damping",
            "property-animator-reverses", "property-animator-pause-and-continue",
            "property-animator-pauses-on-completion",
        ])
    func passes(name: String) throws {
        let (report, _) = try Self.replay(name)
        #expect(report.passed)
        #expect(report.release != nil)
    }

    @Test("projection: the same flick finishes at 0.998 and cancels at 0.99")
    func projection() throws {
        let (normal, _) = try Self.replay("projection-flick-finishes")
        let (fast, _) = try Self.replay("projection-fast-cancels")
        #expect(normal.release?.reason == "projection" && fast.release?.reason == "projection")
        #expect(normal.release?.progress == fast.release?.progress)
        // (v/1000)·r/(1 − r): 499 vs 99 times v/1000, from the same release.
        let v = try #require(normal.release.map { ($0.projected! - $0.progress) / 499 * 1000 })
        #expect(abs(try #require(fast.release?.projected) - (fast.release!.progress + v / 1000 * 99)) < 1e-9)
    }

    @Test("rubber band: tracking rises past the clamp's 0.8, monotonically, to ≈ 0.904 (d = 390/200)")
    func rubberBand() throws {
        let (_, frames) = try Self.replay("rubber-band-past-clamp")
        let progress = Self.tracking(frames)
        // Frames carry progress to 1e-6 (docs/PROTOCOL.md, "Delta frames").
        #expect(abs(progress.max()! - (0.8 + (1 - 1 / (0.2 * 0.55 / 1.95 + 1)) * 1.95)) < 5e-7 + 1e-12)
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("zero-origin-frame: the detail starts in the top-left corner")
    func zeroOrigin() throws {
        let (_, frames) = try Self.replay("pitfall-zero-origin-frame")
        let first = try #require(frames.first { $0["phase"] == .string("tracking") })
        let detail = try #require(Self.layer("to", in: first))
        guard case .array(let center)? = detail["center"], let x = center[0].number, let y = center[1].number else {
            Issue.record("no centre")
            return
        }
        // On its way from (0, 0) to the screen's centre (195, 422): on that line, not on the
        // line from the thumbnail (208, 724) up to the centre.
        // (Centres are sent to 0.01 pt: the slope to within 0.005·(1 + 422/195)/x.)
        #expect(x > 0 && x < 195 && abs(y / x - 422.0 / 195) < 0.016 / x, "the detail at (\(x), \(y))")
    }

    @Test("complete-on-cancel: finished, stuck at the release progress, the source view removed")
    func completeOnCancel() throws {
        let (report, frames) = try Self.replay("pitfall-complete-on-cancel")
        #expect(report.release?.decision == "cancel")
        #expect(frames.last?["phase"] == .string("finished") && frames.last?["progress"] == .number(0.3))
        // completeTransition(true) removed the source view: the pushed screen alone, part way in.
        #expect(Self.layer("from", in: frames.last!) == nil && Self.layer("to", in: frames.last!) != nil)
    }

    @Test("negative-completion-speed: linear playback, then one frame of the end state before the cancel")
    func negativeSpeed() throws {
        let (_, frames) = try Self.replay("pitfall-negative-completion-speed")
        let cancelling = frames.filter { $0["phase"] == .string("cancelling") }
        // The end state: the pushed screen alone, in place, at progress 0.
        let flashes = cancelling.filter { Self.layer("from", in: $0) == nil }
        #expect(flashes.count == 1)
        let flash = try #require(flashes.first)
        #expect(flash["progress"] == .number(0) && Self.layer("to", in: flash) != nil)
        #expect(frames.last?["phase"] == .string("cancelled"))
        // Linear: equal ticks take equal steps of progress.
        let steps = cancelling.compactMap { $0["progress"]?.number }.filter { $0 > 0 }
        let deltas = zip(steps, steps.dropFirst()).map { $0 - $1 }
        #expect(deltas.count > 5)
        // (Frames carry progress to 1e-6: docs/PROTOCOL.md, "Delta frames".)
        #expect(deltas.allSatisfy { abs($0 - deltas[0]) < 2e-6 })
    }

    @Test("no-abs: a leftward drag never leaves the clamp's lower limit")
    func noAbs() throws {
        let (_, frames) = try Self.replay("pitfall-no-abs")
        let progress = Self.tracking(frames)
        #expect(!progress.isEmpty && progress.allSatisfy { $0 == 0.01 })
    }

    @Test("property animator: scrubbed through its curve, reversed on release, inactive at the end")
    func propertyAnimator() throws {
        let (_, frames) = try Self.replay("property-animator-reverses")
        let tracking = frames.filter { $0["phase"] == .string("tracking") }
        let last = try #require(tracking.last)
        // fractionComplete 0.35, the view at easeIn(0.35) (scrubsLinearly false).
        #expect(last["animator"]?["fractionComplete"] == .number(0.35))
        #expect(try #require(last["progress"]?.number) < 0.2)
        #expect(last["animator"]?["state"] == .string("active") && last["animator"]?["running"] == .bool(false))
        let running = try #require(frames.first { $0["phase"] == .string("cancelling") })
        #expect(running["animator"]?["running"] == .bool(true) && running["animator"]?["reversed"] == .bool(true))
        // Reversed, fractionComplete reads 1 − the forward time (iOS 11+): 0.65 at release, counting up.
        let readings = frames.filter { $0["phase"] == .string("cancelling") }.compactMap {
            $0["animator"]?["fractionComplete"]?.number
        }
        #expect(abs(try #require(readings.first) - 0.65) < 1e-12)
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0 <= $1 } && readings.last! > 0.9)
        #expect(frames.last?["animator"]?["state"] == .string("inactive"))
    }

    @Test("property animator: a touch pauses the run and the pan goes on from fractionComplete")
    func pauseAndContinue() throws {
        let (report, frames) = try Self.replay("property-animator-pause-and-continue")
        let grabbed = try #require(
            frames.drop { $0["phase"] != .string("finishing") }.first { $0["phase"] == .string("tracking") })
        #expect(grabbed["animator"]?["running"] == .bool(false) && grabbed["animator"]?["reversed"] == .bool(false))
        // 0.6 plus 200 ms of a 1 s run over the remaining 0.4: fractionComplete 0.68.
        let fraction = try #require(grabbed["animator"]?["fractionComplete"]?.number)
        #expect(abs(fraction - 0.68) < 0.02)
        #expect(abs(try #require(report.release?.progress) - (fraction - 0.6)) < 1e-9)
    }

    @Test("pausesOnCompletion: paused at the end, taken back by a drag, paused at the start; never finished")
    func pausesOnCompletion() throws {
        let (report, frames) = try Self.replay("property-animator-pauses-on-completion")
        #expect(report.outcome == .none)
        let paused = frames.filter { $0["phase"] == .string("paused") }
        #expect(paused.first?["progress"] == .number(1) && paused.last?["progress"] == .number(0))
        #expect(
            paused.last?["animator"]?["state"] == .string("active")
                && paused.last?["animator"]?["reversed"] == .bool(true))
        // Paused reversed at the start: the forward time 0 reads 1 (iOS 11+).
        #expect(paused.last?["animator"]?["fractionComplete"] == .number(1))
        #expect(!frames.contains { $0["phase"] == .string("finished") || $0["phase"] == .string("cancelled") })
    }

    @Test("a missed release expectation fails with its reason; a bad one is refused")
    func releaseExpectation() throws {
        let script = try PanScript.parse(
            Data(
                """
                {"config": {"transition": "push"},
                 "steps": [{"down": [100, 420]}, {"move": [150, 420], "ms": 150}, {"up": true}],
                 "expect": {"release": {"reason": "projection", "decision": "finish", "projected": [1, 2]}}}
                """.utf8))
        let report = try ScriptRunner.runLocal(script)
        #expect(report.failures.contains("release: expected reason projection, got threshold"))
        #expect(report.failures.contains("release: expected decision finish, got cancel"))
        #expect(report.failures.contains("release: expected projected in 1.0…2.0, got none"))
        #expect(throws: ScriptError.self) {
            try PanScript.parse(Data(#"{"steps": [{"up": true}], "expect": {"release": {"reason": "abs"}}}"#.utf8))
        }
        #expect(throws: ScriptError.self) {
            try PanScript.parse(Data(#"{"steps": [{"up": true}], "expect": {"release": {"projected": [2, 1]}}}"#.utf8))
        }
    }
}
