import Foundation
import SandboxSession

/// Median, lowest and highest of a few figures: what `--repeat` (bench, latency) sums up
/// its runs with.
public struct Spread: Equatable, JSONWritable {
    public let median: Double
    public let min: Double
    public let max: Double

    /// nil when there is nothing to sum up. The median of an even count is the mean of the
    /// middle two. Sorting a handful of numbers by hand: HdrHistogram (the tools' percentile
    /// library) records integers within a precision, for thousands of samples, not this.
    public init?(_ values: [Double]) {
        let sorted = values.filter(\.isFinite).sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = first
        max = last
    }

    /// "11.5 (10.9–12.8)"
    public func text(_ format: String) -> String {
        text { String(format: format, $0) }
    }

    /// Each figure written by `format`.
    public func text(_ format: (Double) -> String) -> String {
        "\(format(median)) (\(format(min))–\(format(max)))"
    }

    /// At three decimals: every figure summed up (milliseconds, µs per frame, fps, percent, a
    /// ratio) is measured more coarsely than that, so the digits past it are float noise.
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("median")
        w.fixed(median, 3)
        w.key("min")
        w.fixed(min, 3)
        w.key("max")
        w.fixed(max, 3)
        w.endObject()
    }
}
