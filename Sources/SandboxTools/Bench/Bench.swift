import Foundation
import SandboxSession
import SandboxWebSockets

/// One bench measurement: N sessions streaming at F fps for a window of seconds.
public struct BenchResult: Sendable, JSONWritable {
    public let sessions: Int
    public let connected: Int
    public let fps: Int
    public let seconds: Double
    public let framesPerSecond: Double
    /// Mean payload bytes per frame (what `ws-floor stream --bytes` should send to compare).
    public var meanFrameBytes: Double = 0
    public let meanSessionFPS: Double
    public let slowestSessionFPS: Double
    /// Frames within half a period of their schedule, over the frames the window should hold.
    public let onTimeFraction: Double
    public let jitter: LatencySummary?
    /// CPU cores the server used in the window, and its resident memory at the end (local only).
    public let serverCores: Double?
    public let serverRSSKiB: Int?
    public let serverRSSPerSessionKiB: Double?
    public let clientCores: Double
    public let errors: [String]
    /// CPU cores a load balancer between the clients and the server used in the window
    /// (`bench --balancer-pid`): its cost, also per frame delivered.
    public var balancerCores: Double? = nil

    /// The server's CPU time per frame sent, in microseconds (local only).
    public var serverMicrosecondsPerFrame: Double? {
        guard let serverCores, framesPerSecond > 0 else { return nil }
        return serverCores * 1e6 / framesPerSecond
    }

    /// The balancer's CPU time per frame delivered, in microseconds.
    public var balancerMicrosecondsPerFrame: Double? {
        guard let balancerCores, framesPerSecond > 0 else { return nil }
        return balancerCores * 1e6 / framesPerSecond
    }

    /// The bar of the ramp: ≥ 99 % of frames on time and p99 jitter ≤ 2 ms, every session up.
    public var holds: Bool {
        connected == sessions && onTimeFraction >= 0.99 && (jitter?.p99 ?? .infinity) <= 2 && errors.isEmpty
    }

    /// Each figure at the precision it is measured with, so no float noise is printed
    /// (`BenchOutputTests.benchFiguresAreRoundedToTheirPrecision`): CPU from /proc in 10 ms
    /// ticks over a window of ≥ 1 s (cores to 0.001), frames counted over the window (fps to
    /// 0.01), on-time as a fraction of thousands of frames (0.00001), RSS in KiB.
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("sessions")
        w.integer(sessions)
        w.key("connected")
        w.integer(connected)
        w.key("fps")
        w.integer(fps)
        w.key("seconds")
        w.fixed(seconds, 3)
        w.key("framesPerSecond")
        w.fixed(framesPerSecond, 2)
        w.key("meanFrameBytes")
        w.fixed(meanFrameBytes, 1)
        w.key("meanSessionFPS")
        w.fixed(meanSessionFPS, 2)
        w.key("slowestSessionFPS")
        w.fixed(slowestSessionFPS, 2)
        w.key("onTimeFraction")
        w.fixed(onTimeFraction, 5)
        w.key("jitterMs")
        w.value(jitter)
        w.key("serverCores")
        w.fixed(serverCores, 3)
        w.key("serverMicrosecondsPerFrame")
        w.fixed(serverMicrosecondsPerFrame, 3)
        w.key("serverRSSKiB")
        w.integer(serverRSSKiB)
        w.key("serverRSSPerSessionKiB")
        w.fixed(serverRSSPerSessionKiB, 2)
        w.key("clientCores")
        w.fixed(clientCores, 3)
        if balancerCores != nil {
            w.key("balancerCores")
            w.fixed(balancerCores, 3)
            w.key("balancerMicrosecondsPerFrame")
            w.fixed(balancerMicrosecondsPerFrame, 3)
        }
        w.key("errors")
        w.integer(errors.count)
        w.key("holds")
        w.bool(holds)
        w.endObject()
    }
}

/// One target of `sandbox bench --json`: one measurement, or a ramp's steps and the best of them.
public struct BenchTargetReport: JSONWritable {
    public let target: String
    public let url: String
    public let outcome: Outcome

    public enum Outcome {
        case single(BenchResult)
        case ramp(best: BenchResult?, steps: [BenchResult])
    }

    public init(target: String, url: String, outcome: Outcome) {
        self.target = target
        self.url = url
        self.outcome = outcome
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("target")
        w.string(target)
        w.key("url")
        w.string(url)
        switch outcome {
        case .single(let result):
            w.key("result")
            result.write(to: &w)
        case let .ramp(best, steps):
            w.key("best")
            w.integer(best?.sessions)
            w.key("steps")
            w.beginArray()
            for step in steps { step.write(to: &w) }
            w.endArray()
        }
        w.endObject()
    }
}

/// Runs bench measurements with the libwebsockets client on one or more threads.
public enum Bench {
    /// Measures `sessions` sessions for `seconds` after they connect and warm up.
    public static func measure(
        url: WebSocketURL, isSandbox: Bool, sessions: Int, fps: Int, seconds: Double, threads: Int, serverPID: Int32?,
        balancerPID: Int32? = nil, progress: (Double) -> Void = { _ in }
    ) -> BenchResult {
        let baselineRSS = serverPID.flatMap(ProcessStats.residentKiB)
        var plan = BenchPlan(url: url, origin: .now)
        plan.isSandbox = isSandbox
        plan.fps = fps
        plan.windowStart = 1.5 + Double(sessions) / 400  // connecting, then a second of warm-up
        plan.windowEnd = plan.windowStart + seconds

        let workers = (0..<threads).map { index in
            BenchWorker(plan: plan, count: sessions / threads + (index < sessions % threads ? 1 : 0))
        }
        let group = DispatchGroup()
        let results = ResultBox(count: threads)
        for (index, worker) in workers.enumerated() {
            group.enter()
            let thread = Thread {
                results.set(index, worker.run())
                group.leave()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        // The caller hears the fraction of the run done, twice a second (`bench`'s progress line).
        func report() { progress(min((ContinuousClock.now - plan.origin).inSeconds / plan.windowEnd, 1)) }
        sleep(until: plan.origin + .seconds(plan.windowStart), every: 0.5, report)
        let serverStart = serverPID.flatMap(ProcessStats.cpuSeconds)
        let balancerStart = balancerPID.flatMap(ProcessStats.cpuSeconds)
        let clientStart = ProcessStats.ownCPUSeconds()
        sleep(until: plan.origin + .seconds(plan.windowEnd), every: 0.5, report)
        let serverEnd = serverPID.flatMap(ProcessStats.cpuSeconds)
        let balancerEnd = balancerPID.flatMap(ProcessStats.cpuSeconds)
        let clientEnd = ProcessStats.ownCPUSeconds()
        let rss = serverPID.flatMap(ProcessStats.residentKiB)
        group.wait()

        var counts = BenchCounts()
        for result in results.all { counts.add(result) }
        let expected = Double(fps) * seconds * Double(max(counts.connected, 1))
        var result = BenchResult(
            sessions: sessions, connected: counts.connected, fps: fps, seconds: seconds,
            framesPerSecond: Double(counts.frames) / seconds,
            meanSessionFPS: Double(counts.frames) / seconds / Double(max(counts.connected, 1)),
            slowestSessionFPS: counts.connected > 0 ? counts.slowestFPS : 0,
            onTimeFraction: min(Double(counts.onTime) / expected, 1),
            jitter: LatencySummary(counts.jitter),
            serverCores: zip2(serverStart, serverEnd).map { ($1 - $0) / seconds },
            serverRSSKiB: rss,
            serverRSSPerSessionKiB: zip2(baselineRSS, rss).map { Double($1 - $0) / Double(max(sessions, 1)) },
            clientCores: (clientEnd - clientStart) / seconds,
            errors: counts.errors)
        result.balancerCores = zip2(balancerStart, balancerEnd).map { ($1 - $0) / seconds }
        result.meanFrameBytes = Double(counts.frameBytes) / Double(max(counts.frames, 1))
        return result
    }

    /// The largest session count that holds the bar: doubles from `start` until it fails, then
    /// halves the gap until it is within 5 %.
    public static func ramp(
        start: Int, limit: Int, measure: (Int) -> BenchResult, report: (BenchResult) -> Void
    ) -> (best: BenchResult?, steps: [BenchResult]) {
        var steps: [BenchResult] = []
        var good: BenchResult?
        var bad: Int?
        var n = start
        while n <= limit {
            let result = measure(n)
            steps.append(result)
            report(result)
            if result.holds { good = result; n *= 2 } else { bad = n; break }
        }
        guard let failed = bad else { return (good, steps) }
        var low = good?.sessions ?? 0
        var high = failed
        while Double(high - low) > 0.05 * Double(high), high - low > 1 {
            let middle = (low + high) / 2
            let result = measure(middle)
            steps.append(result)
            report(result)
            if result.holds { good = result; low = middle } else { high = middle }
        }
        return (good, steps)
    }

    /// Sleeps until `instant`, waking every `step` seconds to call `wake`.
    private static func sleep(until instant: ContinuousClock.Instant, every step: Double, _ wake: () -> Void) {
        while true {
            let remaining = (instant - .now).inSeconds
            guard remaining > 0 else { return }
            Thread.sleep(forTimeInterval: min(remaining, step))
            wake()
        }
    }

    private static func zip2<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }

    /// Results written by the worker threads, read after they are all done.
    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [BenchCounts?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: BenchCounts) { lock.withLock { results[index] = value } }
        var all: [BenchCounts] { lock.withLock { results.compactMap { $0 } } }
    }
}
