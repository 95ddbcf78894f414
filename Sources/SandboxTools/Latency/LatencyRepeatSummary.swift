import Foundation
import SandboxSession

/// `sandbox latency --repeat N`: the sandbox and the echo floor measured N times, alternately,
/// summed up as medians with their ranges. Latency percentiles here move far more than CPU
/// does between identical runs — the input → frame p50 of one build measured 1.07× and 2.61×
/// the floor in two runs a minute apart (docs/PERFORMANCE.md, "Fifth pass") — so a goal is read
/// from the median over runs, each sandbox run against the floor run right after it.
public struct LatencyRepeatSummary: JSONWritable {
    public let reports: [LatencyReport]
    public var runs: Int { reports.count }

    public init(reports: [LatencyReport]) {
        self.reports = reports
    }

    /// One percentile of each run, in ms (nil where a run recorded nothing).
    private static func spread(_ histograms: [LatencySummary?], _ percentile: KeyPath<LatencySummary, Double>) -> Spread? {
        Spread(histograms.compactMap { $0?[keyPath: percentile] })
    }

    private var inputToFrame: [LatencySummary?] { reports.map { LatencySummary($0.sandbox.roundTrip) } }
    private var server: [LatencySummary?] { reports.map { LatencySummary($0.sandbox.server) } }
    private var floor: [LatencySummary?] { reports.compactMap(\.floor).map { LatencySummary($0.roundTrip) } }
    /// Each run's ratio to the floor run right after it.
    private var ratios: [(p50: Double, p99: Double)] { reports.compactMap(\.ratio) }

    /// `(name, p50, p99)` rows, the ratio last, when measured.
    private var rows: [(name: StaticString, p50: Spread?, p99: Spread?, unit: String)] {
        var rows: [(name: StaticString, p50: Spread?, p99: Spread?, unit: String)] = [
            ("inputToFrameMs", Self.spread(inputToFrame, \.p50), Self.spread(inputToFrame, \.p99), "ms"),
            ("serverMs", Self.spread(server, \.p50), Self.spread(server, \.p99), "ms"),
        ]
        if !floor.isEmpty {
            rows.append(("floorMs", Self.spread(floor, \.p50), Self.spread(floor, \.p99), "ms"))
        }
        if !ratios.isEmpty {
            rows.append(("ratio", Spread(ratios.map(\.p50)), Spread(ratios.map(\.p99)), "×"))
        }
        return rows
    }

    private static let labels: [String: String] = [
        "inputToFrameMs": "input → frame", "serverMs": "server time", "floorMs": "echo floor",
        "ratio": "÷ floor, run by run",
    ]

    public var lines: [String] {
        var lines = ["summary of \(runs) alternating runs: median (lowest–highest)"]
        for row in rows {
            let format = row.unit == "×" ? "%.2f" : "%.3f"
            let label = Self.labels["\(row.name)"]!.padding(toLength: 22, withPad: " ", startingAt: 0)
            let cells = [("p50", row.p50), ("p99", row.p99)].map { name, spread in
                "\(name) " + (spread.map { $0.text(format) + (row.unit == "×" ? "×" : " ms") } ?? "—")
            }
            lines.append("  \(label)\(cells.joined(separator: ", "))")
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
        if let floor = report.floor, let summary = LatencySummary(floor.roundTrip) {
            line += "; floor \(summary.short)"
        }
        if let ratio = report.ratio {
            line += String(format: "; ratio p50 %.2f×, p99 %.2f×", ratio.p50, ratio.p99)
        }
        if report.sandbox.lost > 0 { line += "; lost \(report.sandbox.lost)" }
        return line
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("target")
        w.string("summary")
        w.key("runs")
        w.integer(runs)
        for row in rows {
            w.key(row.name)
            w.beginObject()
            w.key("p50")
            w.value(row.p50)
            w.key("p99")
            w.value(row.p99)
            w.endObject()
        }
        w.endObject()
    }
}
