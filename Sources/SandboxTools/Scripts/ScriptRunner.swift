import Foundation
import SandboxSession

/// What one replay of a script did, and which expectations it missed.
public struct ReplayReport: Sendable, JSONWritable {
    public let name: String
    /// "local" or the server's URL.
    public let mode: String
    public let outcome: PanScript.Outcome
    public let finalProgress: Double
    /// Frames received from the first step on.
    public let frames: Int
    public let durationMs: Double
    /// Input → frame: the round trip over a socket; in-process, the session's own time.
    public let latency: LatencySummary?
    /// The server's `sent − received` of acknowledged frames (over a socket only).
    public let serverTime: LatencySummary?
    /// The progress of the first frame acknowledging each pointer `seq`.
    public let samples: [Sample]
    /// The first seq sent while a completion ran (a grab): timing-dependent from there on.
    public let firstGrabSeq: Int?
    public let errors: [String]
    /// The error codes, in order.
    public let errorCodes: [String]
    /// Every lifecycle callback (`sheet.viewWillAppear(true)`), in order.
    public let lifecycle: [String]
    /// The final scene (nil without one).
    public let scene: PanScript.SceneExpectation?
    /// The last `released` event, if any.
    public var release: Release? = nil
    public internal(set) var failures: [String]
    /// The frames as JSON lines, when asked for.
    public let traceLines: [String]

    public struct Release: Equatable, Sendable {
        public let decision: String
        public let reason: String
        public let progress: Double
        public let projected: Double?
    }

    public struct Sample: Equatable, Sendable {
        public let seq: Int
        public let progress: Double
    }

    public var passed: Bool { failures.isEmpty }

    /// The same report with more reasons to fail (e.g. disagreeing with another replay).
    public func adding(failures more: [String]) -> ReplayReport {
        var copy = self
        copy.failures += more
        return copy
    }

    public var summary: String {
        var line =
            "\(passed ? "ok  " : "FAIL") \(name) [\(mode)]: \(outcome.rawValue), progress \(finalProgress), "
            + "\(frames) frames, \(String(format: "%.0f", durationMs)) ms"
        if let latency { line += "; input→frame \(latency.short)" }
        if let serverTime { line += "; server \(serverTime.short)" }
        return ([line] + failures.map { "     - \($0)" }).joined(separator: "\n")
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("name")
        w.string(name)
        w.key("mode")
        w.string(mode)
        w.key("passed")
        w.bool(passed)
        w.key("outcome")
        w.string(outcome.rawValue)
        w.key("progress")
        w.number(finalProgress)
        w.key("frames")
        w.integer(frames)
        w.key("durationMs")
        w.number(durationMs)
        w.key("latencyMs")
        w.value(latency)
        w.key("serverMs")
        w.value(serverTime)
        w.key("samples")
        w.beginArray()
        for sample in samples { w.pair(Double(sample.seq), sample.progress) }
        w.endArray()
        w.key("errors")
        w.strings(errors)
        w.key("lifecycle")
        w.strings(lifecycle)
        w.key("release")
        if let release {
            w.beginObject()
            w.key("decision"); w.string(release.decision)
            w.key("reason"); w.string(release.reason)
            w.key("progress"); w.number(release.progress)
            if let projected = release.projected { w.key("projected"); w.number(projected) }
            w.endObject()
        } else {
            w.null()
        }
        w.key("failures")
        w.strings(failures)
        w.endObject()
    }
}

/// Runs pan scripts in-process (`runLocal`) or against a server (`runRemote`, RemoteTransport.swift:
/// the one file of the replays that opens sockets).
public enum ScriptRunner {
    /// `network`: the session's simulated link from the start (as `serve --network` gives it).
    public static func runLocal(
        _ script: PanScript, fps: Int = 60, network: NetworkConditions = .loopback, trace: Bool = false
    ) throws(ScriptError) -> ReplayReport {
        var transport = LocalTransport(fps: fps, network: network)
        return run(script, on: &transport, mode: "local", trace: trace)
    }

    /// Plays `script` on `transport` and checks its expectations.
    static func run<T: ReplayTransport>(_ script: PanScript, on transport: inout T, mode: String, trace: Bool)
        -> ReplayReport
    {
        let observer = transport.observer
        observer.collectsTrace = trace
        var player = ScriptPlayer()
        var failures: [String] = []
        var duration = 0.0
        do {
            duration = try player.play(script, on: &transport)
        } catch {
            failures.append("run: \(error.description)")
            duration = player.now
            transport.stop()
        }
        var report = ReplayReport(
            name: script.name, mode: mode, outcome: observer.outcome, finalProgress: observer.progress,
            frames: observer.frames, durationMs: duration, latency: LatencySummary(observer.latency),
            serverTime: LatencySummary(observer.serverTime),
            samples: observer.samples.map { ReplayReport.Sample(seq: $0.seq, progress: $0.progress) },
            firstGrabSeq: observer.firstGrabSeq,
            errors: observer.errors, errorCodes: observer.errorCodes, lifecycle: observer.lifecycle,
            scene: observer.sceneSummary, failures: failures, traceLines: observer.trace)
        report.release = observer.release
        // A run that never started (no connection, a refused configuration) is that one failure,
        // not every expectation besides (`test_cli_errors.py`: `test_pan_against_a_dead_port_says_only_that`).
        if player.started { report.failures += check(script.expect, against: report) }
        return report
    }

    static func check(_ expect: PanScript.Expectations, against report: ReplayReport) -> [String] {
        var failures: [String] = []
        if let outcome = expect.outcome, outcome != report.outcome {
            failures.append("outcome: expected \(outcome.rawValue), got \(report.outcome.rawValue)")
        }
        if let progress = expect.progress, abs(progress - report.finalProgress) > 1e-9 {
            failures.append("progress: expected \(progress), got \(report.finalProgress)")
        }
        if let frames = expect.frames, !frames.contains(report.frames) {
            failures.append("frames: expected \(frames.lowerBound)…\(frames.upperBound), got \(report.frames)")
        }
        if let budget = expect.latencyP99Ms, let p99 = report.latency?.p99, p99 > budget {
            failures.append("latency: p99 \(LatencySummary.format(p99)) ms is over the budget of \(budget) ms")
        }
        if let lifecycle = expect.lifecycle, lifecycle != report.lifecycle {
            let index =
                zip(lifecycle, report.lifecycle).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(lifecycle.count, report.lifecycle.count)
            let wanted = index < lifecycle.count ? lifecycle[index] : "(the end)"
            let got = index < report.lifecycle.count ? report.lifecycle[index] : "(the end)"
            failures.append(
                "lifecycle: at \(index) expected \(wanted), got \(got) (\(report.lifecycle.count) callbacks)")
        }
        if let errors = expect.errors, errors != report.errorCodes {
            // The server's own words for each error, not only its code (`test_pan_names_the_servers_error`).
            let said = report.errors.isEmpty ? "" : " — the server said: " + report.errors.joined(separator: "; ")
            failures.append("errors: expected \(errors), got \(report.errorCodes)\(said)")
        }
        if let release = expect.release { failures += check(release, against: report.release) }
        if let scene = expect.scene {
            let got = report.scene
            if scene.topMost != nil, scene.topMost != got?.topMost {
                failures.append("scene: expected top-most \(scene.topMost!), got \(got?.topMost ?? "no scene")")
            }
            if let presented = scene.presented, presented != got?.presented {
                failures.append("scene: expected presented \(presented), got \(got?.presented ?? [])")
            }
            if let interface = scene.interface, interface != got?.interface {
                failures.append("scene: expected the interface \(interface), got \(got?.interface ?? "no scene")")
            }
            if let bounds = scene.bounds, bounds != got?.bounds {
                failures.append("scene: expected bounds \(bounds), got \(got?.bounds ?? [])")
            }
            for (sheet, detent) in scene.detent ?? [:] where got?.detent?[sheet] != detent {
                failures.append("scene: expected \(sheet) at detent \(detent), got \(got?.detent?[sheet] ?? "none")")
            }
            for (navigation, stack) in scene.stacks ?? [:] where got?.stacks?[navigation] != stack {
                failures.append("scene: expected \(navigation)'s stack \(stack), got \(got?.stacks?[navigation] ?? [])")
            }
        }
        return failures
    }

    static func check(_ expect: PanScript.ReleaseExpectation, against got: ReplayReport.Release?) -> [String] {
        guard let got else { return ["release: expected a released event, got none"] }
        var failures: [String] = []
        if let decision = expect.decision, decision != got.decision {
            failures.append("release: expected decision \(decision), got \(got.decision)")
        }
        if let reason = expect.reason, reason != got.reason {
            failures.append("release: expected reason \(reason), got \(got.reason)")
        }
        if let range = expect.projected, !(got.projected.map(range.contains) ?? false) {
            failures.append(
                "release: expected projected in \(range.lowerBound)…\(range.upperBound), got \(got.projected.map { "\($0)" } ?? "none")"
            )
        }
        if let range = expect.progress, !range.contains(got.progress) {
            failures.append(
                "release: expected progress in \(range.lowerBound)…\(range.upperBound), got \(got.progress)")
        }
        return failures
    }

    /// How far apart progress samples may be once a grab has landed: the grab takes the running
    /// completion where it is when the touch arrives, and over a socket that is real time (a
    /// network delay later than on the virtual clock). 0.02 is about 10 ms of a 0.5 s completion.
    public static let grabTolerance = 0.02

    /// Where a replay over a socket and the in-process one disagree: the outcome, the final
    /// progress, or the progress acknowledged for a pointer seq both saw — exactly, until a grab
    /// (then within `grabTolerance`). A live server may coalesce frames, so a seq may have no
    /// frame of its own there; completion ticks fall at other times and are not compared.
    public static func disagreements(_ local: ReplayReport, _ remote: ReplayReport) -> [String] {
        var out: [String] = []
        if local.outcome != remote.outcome {
            out.append(
                "local and remote disagree on the outcome: \(local.outcome.rawValue) vs \(remote.outcome.rawValue)")
        }
        if local.lifecycle != remote.lifecycle {
            out.append(
                "local and remote disagree on the lifecycle: \(local.lifecycle.count) vs \(remote.lifecycle.count) callbacks"
            )
        }
        if local.scene != remote.scene {
            out.append("local and remote disagree on the final scene")
        }
        // The decision and its reason exactly; the progress exactly until a grab (then within
        // grabTolerance); the projection (from the velocity, whose time differences round
        // differently on the two clocks: each time is on a 2^-30 s grid, so a 16 ms sample
        // spacing may differ by ~1e-7 of itself, and the projection multiplies v by 0.499 s)
        // to 1e-7 more (a sheet flick, gesture-sheet-flick-dismisses, differed by 3e-9).
        let a = local.release, b = remote.release
        let grabbed = local.firstGrabSeq != nil || remote.firstGrabSeq != nil
        let tolerance = grabbed ? grabTolerance : 0
        let progressAgrees =
            switch (a?.progress, b?.progress) {
            case let (x?, y?): abs(x - y) <= tolerance
            default: a == nil && b == nil
            }
        let projectionsAgree =
            switch (a?.projected, b?.projected) {
            case let (x?, y?): abs(x - y) <= 1e-7 * max(1, abs(x)) + tolerance
            case (nil, nil): true
            default: false
            }
        if a?.decision != b?.decision || a?.reason != b?.reason || !progressAgrees || !projectionsAgree {
            out.append(
                "local and remote disagree on the last release: \(a.map { "\($0)" } ?? "none") vs \(b.map { "\($0)" } ?? "none")"
            )
        }
        if local.finalProgress != remote.finalProgress {
            out.append(
                "local and remote disagree on the final progress: \(local.finalProgress) vs \(remote.finalProgress)")
        }
        let grab = [local.firstGrabSeq, remote.firstGrabSeq].compactMap { $0 }.min() ?? .max
        let localBySeq = Dictionary(local.samples.map { ($0.seq, $0.progress) }, uniquingKeysWith: { a, _ in a })
        let differing = remote.samples.filter { sample in
            let tolerance = sample.seq < grab ? 0 : grabTolerance
            return localBySeq[sample.seq].map { abs($0 - sample.progress) > tolerance } ?? false
        }
        if let first = differing.first {
            out.append(
                "local and remote disagree on \(differing.count) progress samples, first at seq \(first.seq): "
                    + "\(localBySeq[first.seq]!) vs \(first.progress)")
        }
        if !local.samples.isEmpty && !remote.samples.contains(where: { localBySeq[$0.seq] != nil }) {
            out.append("local and remote share no acknowledged seq to compare")
        }
        return out
    }
}
