import Foundation
import Histogram

/// A latency histogram for a terminal: log-spaced buckets (1-2-5 per decade, microseconds),
/// each with its count and a bar, from the first to the last bucket that has samples.
public enum TerminalHistogram {
    static let edges: [UInt64] = {
        var edges: [UInt64] = []
        var decade: UInt64 = 1
        while decade <= 10_000_000 {
            edges += [decade, 2 * decade, 5 * decade]
            decade *= 10
        }
        return edges
    }()

    public static func render(_ histogram: Histogram<UInt64>, width: Int = 40) -> String {
        guard histogram.totalCount > 0 else { return "  (no samples)" }
        var rows: [(label: String, count: UInt64)] = []
        var lower: UInt64 = 0
        for upper in edges {
            rows.append(("< \(label(upper))", histogram.count(within: lower...(upper - 1))))
            lower = upper
        }
        guard let first = rows.firstIndex(where: { $0.count > 0 }), let last = rows.lastIndex(where: { $0.count > 0 })
        else {
            return ""
        }
        let shown = rows[first...last]
        let most = shown.map(\.count).max() ?? 1
        return shown.map { row in
            let bar = String(
                repeating: "█", count: Int((Double(row.count) / Double(most) * Double(width)).rounded(.up)))
            let label = row.label.padding(toLength: 9, withPad: " ", startingAt: 0)
            return "  \(label) \(String(row.count).leftPadded(to: 7)) \(bar)"
        }.joined(separator: "\n")
    }

    static func label(_ microseconds: UInt64) -> String {
        microseconds >= 1000 ? "\(microseconds / 1000) ms" : "\(microseconds) µs"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
