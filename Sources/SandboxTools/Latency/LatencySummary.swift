import Foundation
import Histogram
import SandboxSession

/// Percentiles of a latency histogram recorded in microseconds, reported in milliseconds.
public struct LatencySummary: Equatable, Sendable, JSONWritable {
    public let count: Int
    public let p50: Double
    public let p90: Double
    public let p99: Double
    public let p999: Double
    public let max: Double

    public init?(_ histogram: Histogram<UInt64>) {
        guard histogram.totalCount > 0 else { return nil }
        count = Int(histogram.totalCount)
        let ms = { (p: Double) in Double(histogram.valueAtPercentile(p)) / 1000 }
        p50 = ms(50)
        p90 = ms(90)
        p99 = ms(99)
        p999 = ms(99.9)
        max = Double(histogram.max) / 1000
    }

    /// Recorded in whole microseconds: three decimals of a millisecond, no more.
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("count")
        w.integer(count)
        w.key("p50")
        w.fixed(p50, 3)
        w.key("p90")
        w.fixed(p90, 3)
        w.key("p99")
        w.fixed(p99, 3)
        w.key("p99.9")
        w.fixed(p999, 3)
        w.key("max")
        w.fixed(max, 3)
        w.endObject()
    }

    /// "p50 0.210 ms · p99 0.480 ms"
    public var short: String {
        "p50 \(Self.format(p50)) ms · p99 \(Self.format(p99)) ms"
    }

    public static func format(_ ms: Double) -> String {
        String(format: ms < 1 ? "%.3f" : ms < 10 ? "%.2f" : "%.1f", ms)
    }
}
