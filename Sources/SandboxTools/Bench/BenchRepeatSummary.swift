import SandboxSession

/// `sandbox bench --repeat N`: the sandbox and the streamer measured N times, alternately, and
/// summed up as medians with their ranges. One run on this machine (a VM sharing its cores)
/// moves by ±10 % between identical runs, more than most changes being measured; alternating
/// puts both targets under the same drift, and each sandbox run is compared with the streamer
/// run right after it (`ratios`), not with a median taken at another time.
public struct BenchRepeatSummary: JSONWritable {
    public let sandbox: [BenchResult]
    public let streamer: [BenchResult]
    public var runs: Int { sandbox.count }

    public init(sandbox: [BenchResult], streamer: [BenchResult]) {
        self.sandbox = sandbox
        self.streamer = streamer
    }

    /// Server CPU per frame of each sandbox run over the streamer run after it.
    public var ratios: [Double] {
        zip(sandbox, streamer).compactMap { mine, theirs in
            guard let a = mine.serverMicrosecondsPerFrame, let b = theirs.serverMicrosecondsPerFrame, b > 0 else {
                return nil
            }
            return a / b
        }
    }

    private var targets: [(StaticString, [BenchResult])] { [("sandbox", sandbox), ("streamer", streamer)] }

    static func perFrame(_ results: [BenchResult]) -> Spread? {
        Spread(results.compactMap(\.serverMicrosecondsPerFrame))
    }
    static func slowest(_ results: [BenchResult]) -> Spread? { Spread(results.map(\.slowestSessionFPS)) }
    static func onTime(_ results: [BenchResult]) -> Spread? { Spread(results.map { $0.onTimeFraction * 100 }) }

    public var lines: [String] {
        var lines = ["summary of \(runs) alternating runs: median (lowest–highest)"]
        for (name, results) in targets where !results.isEmpty {
            var line = "  \("\(name)".padding(toLength: 9, withPad: " ", startingAt: 0))"
            if let cpu = Self.perFrame(results) { line += "server CPU \(cpu.text("%.2f")) µs/frame, " }
            if let slowest = Self.slowest(results), let onTime = Self.onTime(results) {
                line += "slowest session \(slowest.text("%.1f")) fps, on time \(onTime.text("%.2f")) %"
            }
            lines.append(line)
        }
        if let ratio = Spread(ratios) {
            lines.append("  server CPU per frame ÷ streamer's, run by run: \(ratio.text("%.2f"))×")
        }
        return lines
    }

    public func write(to w: inout JSONWriter) {
        w.beginSummary(runs: runs)
        for (name, results) in targets where !results.isEmpty {
            w.key(name)
            w.beginObject()
            w.key("microsecondsPerFrame")
            w.value(Self.perFrame(results))
            w.key("slowestSessionFPS")
            w.value(Self.slowest(results))
            w.key("onTimePercent")
            w.value(Self.onTime(results))
            w.endObject()
        }
        w.key("ratio")
        w.value(Spread(ratios))
        w.endObject()
    }
}
