import Foundation

/// `sandbox bench`'s text report: one row per measurement (each run of each target, each step
/// of a ramp), printed when they are all done (`BenchTableTests`).
public struct BenchTable {
    private var table: TextTable
    private let balancer: Bool

    /// `balancer`: add the load balancer's columns (`bench --balancer-pid`).
    public init(balancer: Bool = false) {
        self.balancer = balancer
        var header = [
            "target", "sessions", "fps", "frames/s", "slowest fps", "on time", "jitter p50/p99", "B/frame",
            "server CPU", "µs/frame", "KiB/session", "client CPU",
        ]
        if balancer { header += ["balancer CPU", "balancer µs/frame"] }
        table = TextTable(header: header + ["bar"])
    }

    public mutating func add(_ target: String, _ result: BenchResult) {
        let dash = "—"
        func percent(_ cores: Double?) -> String { cores.map { String(format: "%.0f %%", $0 * 100) } ?? dash }
        func figure(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? dash }
        let sessions =
            result.connected < result.sessions ? "\(result.connected)/\(result.sessions)" : "\(result.sessions)"
        let jitter = result.jitter.map {
            "\(LatencySummary.format($0.p50)) / \(LatencySummary.format($0.p99)) ms"
        }
        var cells = [
            target, sessions, "\(result.fps)", figure(result.framesPerSecond, "%.0f"),
            figure(result.slowestSessionFPS, "%.1f"), figure(result.onTimeFraction * 100, "%.2f %%"), jitter ?? dash,
            figure(result.meanFrameBytes, "%.0f"), percent(result.serverCores),
            figure(result.serverMicrosecondsPerFrame, "%.2f"), figure(result.serverRSSPerSessionKiB, "%.1f"),
            percent(result.clientCores),
        ]
        if balancer { cells += [percent(result.balancerCores), figure(result.balancerMicrosecondsPerFrame, "%.2f")] }
        table.add(cells + [result.holds ? "✓" : "✗"])
    }

    public var lines: [String] { table.lines }

    /// What the bar is, under the table.
    public static let legend =
        "bar ✓: every session up, ≥ 99 % of frames on time (within half a period), p99 jitter ≤ 2 ms, no error"
}
