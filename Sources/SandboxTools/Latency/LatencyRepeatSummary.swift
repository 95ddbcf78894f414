import Foundation
import SandboxSession

/// `sandbox latency --repeat N`: the sandbox (and the echo floor, alternately) measured N
/// times, summed up as medians with their ranges. Latency percentiles here move far more than
/// CPU does between identical runs — the input → frame p50 of one build measured 1.07× and
/// 2.61× the floor in two runs a minute apart (docs/PERFORMANCE.md, "Input → frame latency") — so a goal
/// is read from the median over runs, each sandbox run against the floor run right after it.
///
/// Keeps each run's percentiles only: a report holds ten histograms (about 1.3 MB), and the
/// runs are printed as they end.
public struct LatencyRepeatSummary: JSONWritable {
    /// What the summary needs of one run.
    public struct Run {
        let inputToFrame: LatencySummary?
        let server: LatencySummary?
        /// nil without a floor, or when the floor recorded nothing.
        let floor: LatencySummary?
        let ratio: (p50: Double, p99: Double)?

        public init(_ report: LatencyReport) {
            inputToFrame = LatencySummary(report.sandbox.roundTrip)
            server = LatencySummary(report.sandbox.server)
            floor = report.floor.flatMap { LatencySummary($0.roundTrip) }
            ratio = report.ratio
        }
    }

    private var measured: [Run] = []
    /// Whether the runs had an echo floor (its rows are written, null if it measured nothing).
    public let hasFloor: Bool
    public var runs: Int { measured.count }

    public init(hasFloor: Bool) {
        self.hasFloor = hasFloor
    }

    public mutating func add(_ report: LatencyReport) { measured.append(Run(report)) }

    /// A summary row: a percentile's spread over the runs that measured it, and how many did.
    private struct Row {
        let name: StaticString
        let label: String
        let p50: Spread?
        let p99: Spread?
        /// Runs that gave a value (a failed run gives none and is left out).
        let count: Int
        let isRatio: Bool

        init(_ name: StaticString, _ label: String, _ values: [(p50: Double, p99: Double)], isRatio: Bool = false) {
            self.name = name
            self.label = label
            p50 = Spread(values.map(\.p50))
            p99 = Spread(values.map(\.p99))
            count = values.count
            self.isRatio = isRatio
        }

        init(_ name: StaticString, _ label: String, _ summaries: [LatencySummary?]) {
            self.init(name, label, summaries.compactMap { $0.map { ($0.p50, $0.p99) } })
        }

        func text(_ spread: Spread?) -> String {
            guard let spread else { return "—" }
            return isRatio ? spread.text("%.2f") + "×" : spread.text(LatencySummary.format) + " ms"
        }
    }

    private var rows: [Row] {
        var rows = [
            Row("inputToFrameMs", "input → frame", measured.map(\.inputToFrame)),
            Row("serverMs", "server time", measured.map(\.server)),
        ]
        if hasFloor {
            rows.append(Row("floorMs", "echo floor", measured.map(\.floor)))
            rows.append(Row("ratio", "÷ floor, run by run", measured.compactMap(\.ratio), isRatio: true))
        }
        return rows
    }

    public var lines: [String] {
        var lines = [
            "summary of \(runs) \(hasFloor ? "alternating " : "")run\(runs == 1 ? "" : "s"): median (lowest–highest)"
        ]
        for row in rows {
            var line = "  \(row.label.padding(toLength: 22, withPad: " ", startingAt: 0))"
            line += "p50 \(row.text(row.p50)), p99 \(row.text(row.p99))"
            // Never a figure that looks like N runs' when fewer gave it.
            if row.count < runs { line += "  (from \(row.count) of \(runs) runs)" }
            lines.append(line)
        }
        return lines
    }

    /// One line per run: the figures the goals name.
    public static func line(run: Int, of total: Int, _ report: LatencyReport) -> String {
        var line = "run \(run)/\(total): input → frame "
        line += LatencySummary(report.sandbox.roundTrip)?.short ?? "—"
        if let server = LatencySummary(report.sandbox.server) {
            line += ", server time p99 \(LatencySummary.format(server.p99)) ms"
        }
        if report.sandbox.lost > 0 { line += ", lost \(report.sandbox.lost)" }
        if let floor = report.floor {
            line += "; floor " + (LatencySummary(floor.roundTrip)?.short ?? "—")
            if floor.lost > 0 { line += ", lost \(floor.lost)" }
        }
        if let ratio = report.ratio {
            line += String(format: "; ratio p50 %.2f×, p99 %.2f×", ratio.p50, ratio.p99)
        }
        return line
    }

    /// The same keys whatever happened: without a floor, `floorMs` and `ratio` are null (as
    /// bench writes its ratio).
    public func write(to w: inout JSONWriter) {
        w.beginSummary(runs: runs)
        for row in rows {
            w.key(row.name)
            w.beginObject()
            w.key("p50")
            w.value(row.p50)
            w.key("p99")
            w.value(row.p99)
            w.key("runs")
            w.integer(row.count)
            w.endObject()
        }
        if !hasFloor {
            w.key("floorMs")
            w.null()
            w.key("ratio")
            w.null()
        }
        w.endObject()
    }
}
