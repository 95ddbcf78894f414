import Foundation
import Histogram
import SandboxSession

/// The text and JSON forms of a `sandbox latency` run.
public struct LatencyReport: JSONWritable {
    public let sandbox: LatencyResult
    public let floor: LatencyResult?
    public let options: LatencyOptions
    public let url: String
    public let compare: String?

    public init(sandbox: LatencyResult, floor: LatencyResult?, options: LatencyOptions, url: String, compare: String?) {
        self.sandbox = sandbox
        self.floor = floor
        self.options = options
        self.url = url
        self.compare = compare
    }

    /// Sandbox input → frame over the echo floor, at p50 and p99.
    public var ratio: (p50: Double, p99: Double)? {
        guard let floor, let mine = LatencySummary(sandbox.roundTrip), let base = LatencySummary(floor.roundTrip),
            base.p50 > 0, base.p99 > 0
        else { return nil }
        return (mine.p50 / base.p50, mine.p99 / base.p99)
    }

    /// Both runs' errors.
    public var errors: [String] { sandbox.errors + (floor?.errors ?? []) }

    /// The sandbox, or the floor when there is one, recorded no sample (a floor that answered
    /// nothing is no floor).
    public var measuredNothing: Bool {
        sandbox.roundTrip.totalCount == 0 || floor.map { $0.roundTrip.totalCount == 0 } ?? false
    }

    /// Whether this run measured what it was asked to: no errors, and samples from both.
    public var succeeded: Bool { errors.isEmpty && !measuredNothing }

    public var text: String {
        var lines = [
            "sandbox \(url): \(options.concurrency) connection(s) × \(options.rate) Hz, "
                + "\(sandbox.roundTrip.totalCount) samples in \(String(format: "%.1f", sandbox.seconds)) s, "
                + "client CPU \(String(format: "%.2f", sandbox.clientCPUSeconds)) s",
            "",
            "                    p50       p90       p99     p99.9       max",
            row("input → frame", sandbox.roundTrip),
            row("ping → pong", sandbox.ping),
            row("server time", sandbox.server),
        ]
        if let network = options.network {
            lines.insert("simulated network \(network), both ways; per sample answered by its own frame:", at: 1)
            lines.append(row("  simulated", sandbox.simulated))
            lines.append(row("  the rest", sandbox.unsimulated))
        }
        if let floor, let compare {
            lines.append(row("echo floor", floor.roundTrip))
            lines.append("")
            lines.append("floor: \(compare), \(floor.roundTrip.totalCount) samples")
            if let ratio {
                lines.append(String(format: "input → frame / floor: p50 %.2f×, p99 %.2f×", ratio.p50, ratio.p99))
            }
        }
        lines += ["", "input → frame:", TerminalHistogram.render(sandbox.roundTrip)]
        if sandbox.lost > 0 { lines.append("lost: \(sandbox.lost) samples never answered") }
        return lines.joined(separator: "\n")
    }

    private func row(_ name: String, _ histogram: Histogram<UInt64>) -> String {
        guard let s = LatencySummary(histogram) else {
            return name.padding(toLength: 15, withPad: " ", startingAt: 0) + "  —"
        }
        let cells = [s.p50, s.p90, s.p99, s.p999, s.max].map { (LatencySummary.format($0) + " ms").leftPadded(to: 10) }
        return name.padding(toLength: 15, withPad: " ", startingAt: 0) + cells.joined()
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("url")
        w.string(url)
        w.key("concurrency")
        w.integer(options.concurrency)
        w.key("rate")
        w.number(options.rate)
        w.key("inputToFrameMs")
        w.value(LatencySummary(sandbox.roundTrip))
        w.key("pingMs")
        w.value(LatencySummary(sandbox.ping))
        w.key("serverMs")
        w.value(LatencySummary(sandbox.server))
        if let network = options.network {
            w.key("network")
            network.write(to: &w)
            w.key("simulatedMs")
            w.value(LatencySummary(sandbox.simulated))
            w.key("restMs")
            w.value(LatencySummary(sandbox.unsimulated))
        }
        w.key("lost")
        w.integer(sandbox.lost)
        w.key("seconds")
        w.fixed(sandbox.seconds, 3)
        w.key("clientCPUSeconds")
        w.fixed(sandbox.clientCPUSeconds, 3)
        w.key("errors")
        w.integer(sandbox.errors.count)
        // The text of both runs' errors (the first ten), so an exit 1 is explained in JSON too.
        w.key("errorMessages")
        w.strings(Array(errors.prefix(10)))
        if let floor, let compare {
            w.key("floor")
            w.beginObject()
            w.key("url")
            w.string(compare)
            w.key("roundTripMs")
            w.value(LatencySummary(floor.roundTrip))
            w.key("lost")
            w.integer(floor.lost)
            w.key("errors")
            w.integer(floor.errors.count)
            w.endObject()
        }
        if let ratio {
            w.key("ratio")
            w.beginObject()
            w.key("p50")
            w.fixed(ratio.p50, 3)
            w.key("p99")
            w.fixed(ratio.p99, 3)
            w.endObject()
        }
        w.endObject()
    }
}
