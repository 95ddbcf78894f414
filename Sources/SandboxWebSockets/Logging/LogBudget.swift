import Glibc
import Prometheus
import Synchronization

/// One token bucket, shared by every service thread, for log lines a client causes: a request
/// refused, a connection opened or closed, lws' own lines after startup. Without it one client
/// drives megabytes of log a second (10,000 refused connections a second on loopback, each a
/// line). Past the budget a line is not logged but counted; once a
/// second the watchdog logs "log lines suppressed" with the count (`takeSuppressed`), and the
/// count goes to `sandbox_log_lines_suppressed_total`. Held by
/// `LogSafetyTests.theBudgetAdmitsABurstThenItsRateAndCountsTheRest` and `logCountersReachTheMetrics`.
public final class LogBudget: Sendable {
    /// The process's budget (a log is one per process, like standard error).
    public static let shared = LogBudget()

    /// Sustained lines per second, and the burst.
    public static let defaultRate = 20.0
    public static let defaultBurst = 100.0

    /// Every line suppressed by any budget of this process (for the metric: `LogStats`).
    static let suppressedTotal = Atomic<Int>(0)

    let rate: Double
    let burst: Double
    private let now: @Sendable () -> Double
    private let bucket: Mutex<LogBudgetBucket>

    public init(
        rate: Double = LogBudget.defaultRate, burst: Double = LogBudget.defaultBurst,
        now: @escaping @Sendable () -> Double = LogBudget.monotonicSeconds
    ) {
        self.rate = rate
        self.burst = burst
        self.now = now
        bucket = Mutex(LogBudgetBucket(tokens: burst, last: now()))
    }

    @Sendable public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// True when a client-caused line may be logged now; false (and counted) past the budget.
    /// Call it only for a line the logger's level lets through.
    public func admit() -> Bool {
        let time = now()
        let admitted = bucket.withLock { (bucket: inout LogBudgetBucket) -> Bool in
            bucket.tokens = min(burst, bucket.tokens + max(0, time - bucket.last) * rate)
            bucket.last = time
            guard bucket.tokens >= 1 else {
                bucket.suppressed += 1
                return false
            }
            bucket.tokens -= 1
            return true
        }
        if !admitted { Self.suppressedTotal.add(1, ordering: .relaxed) }
        return admitted
    }

    /// Lines suppressed since the last call (for the summary line).
    public func takeSuppressed() -> Int {
        bucket.withLock { (bucket: inout LogBudgetBucket) -> Int in
            defer { bucket.suppressed = 0 }
            return bucket.suppressed
        }
    }
}

/// `LogBudget`'s tokens, under its mutex (a type of its own so the TSan suppression can name
/// it: Tests/tsan.supp).
struct LogBudgetBucket {
    var tokens: Double
    var last: Double
    var suppressed = 0
}

/// The log's own counters in `GET /metrics`: lines dropped by the writer (a reader of stderr that
/// does not keep up) and lines suppressed by the budget. Both are counted with atomics where they
/// happen (no registry lookup on a hot path) and moved into the registry by `publish`, which the
/// watchdog calls once a second and `/metrics` before each scrape.
enum LogStats {
    private static let published = Mutex<LogStatsPublished>(LogStatsPublished())

    static func publish(to metrics: ServerMetrics) {
        let dropped = LogWriter.droppedTotal.load(ordering: .relaxed)
        let suppressed = LogBudget.suppressedTotal.load(ordering: .relaxed)
        published.withLock { (published: inout LogStatsPublished) in
            // A new registry (tests make several) starts from the totals of the process.
            if published.registry !== metrics.registry { published = LogStatsPublished(registry: metrics.registry) }
            metrics.logLinesDropped.increment(by: Int64(dropped - published.dropped))
            metrics.logLinesSuppressed.increment(by: Int64(suppressed - published.suppressed))
            published.dropped = dropped
            published.suppressed = suppressed
        }
    }
}

/// What `LogStats` already moved into a registry (a type of its own for the TSan suppression file).
struct LogStatsPublished {
    var registry: PrometheusCollectorRegistry?
    var dropped = 0
    var suppressed = 0
}

extension ServerMetrics {
    /// Made through the registry (which returns the same counter for the same name), once a second.
    var logLinesDropped: Counter {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sandbox", metricName: "log_lines_dropped", unitName: "total",
                helpText: "Log lines dropped because standard error's reader did not keep up (1 MiB queued)."))
    }

    var logLinesSuppressed: Counter {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sandbox", metricName: "log_lines_suppressed", unitName: "total",
                helpText: "Client-caused log lines (refusals, opens, closes, lws) past 20 a second, not logged."))
    }
}
