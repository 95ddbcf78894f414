import Glibc
import Prometheus
import Synchronization

/// The budget of log lines clients cause: a request refused, a connection opened, closed or
/// refused at accept, an error sent (debug), lws' own lines after startup. Without it one client
/// drives megabytes of log a second (10,000 refused connections a second on loopback, each a
/// line). Three token buckets:
/// - each peer address has its own (5 a second, bursts of 20), so one address's flood spends
///   its own budget, not everyone's;
/// - the process has one over every peer's lines (20 a second, bursts of 100), so many
///   addresses together still write little;
/// - the first line of each (peer, reason) is kept whatever the two above say (a DNS-rebinding
///   attempt from a new address is always seen), within a bucket of its own (20 a second,
///   bursts of 100: an attacker showing thousands of addresses cannot use it to flood either).
/// Peers are remembered in a table of `peerCapacity` (the one seen longest ago is forgotten:
/// its next first line is kept again). Past the budget a line is counted, by peer; once a second
/// the watchdog logs "log lines suppressed" with the count and the peers that caused most
/// (`takeSuppressed`), and the count goes to `sandbox_log_lines_suppressed_total`. Held by
/// `LogSafetyTests.theBudgetAdmitsABurstThenItsRateAndCountsTheRest`,
/// `onePeersFloodLeavesAnotherPeersLines`, `theFirstLinePerPeerAndReasonIsKept`,
/// `thePeerTableIsBounded` and `logCountersReachTheMetrics`.
public final class LogBudget: Sendable {
    /// The process's budget (a log is one per process, like standard error).
    public static let shared = LogBudget()

    /// Sustained lines per second, and the burst, over every peer.
    public static let defaultRate = 20.0
    public static let defaultBurst = 100.0
    /// Sustained lines per second, and the burst, of one peer.
    public static let defaultPeerRate = 5.0
    public static let defaultPeerBurst = 20.0
    /// Peers remembered; reasons remembered per peer (the reasons are the server's own words).
    public static let peerCapacity = 1024
    static let reasonsPerPeer = 16
    /// Peers named in a summary.
    public static let summaryPeers = 3
    /// The summary line's `why`.
    public static let summaryReason =
        "client-caused lines past \(Int(defaultPeerRate))/s per peer (bursts of \(Int(defaultPeerBurst))), "
        + "\(Int(defaultRate))/s in all (bursts of \(Int(defaultBurst)))"

    /// Every line suppressed by any budget of this process (for the metric: `LogStats`).
    static let suppressedTotal = Atomic<Int>(0)

    let rate: Double
    let burst: Double
    let peerRate: Double
    let peerBurst: Double
    let peerCapacity: Int
    private let now: @Sendable () -> Double
    private let bucket: Mutex<LogBudgetBucket>

    public init(
        rate: Double = LogBudget.defaultRate, burst: Double = LogBudget.defaultBurst,
        peerRate: Double = LogBudget.defaultPeerRate, peerBurst: Double = LogBudget.defaultPeerBurst,
        peerCapacity: Int = LogBudget.peerCapacity,
        now: @escaping @Sendable () -> Double = LogBudget.monotonicSeconds
    ) {
        self.rate = rate
        self.burst = burst
        self.peerRate = peerRate
        self.peerBurst = peerBurst
        self.peerCapacity = peerCapacity
        self.now = now
        let time = now()
        bucket = Mutex(LogBudgetBucket(tokens: burst, firstTokens: burst, last: time))
    }

    @Sendable public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// True when a line `peer` caused (its address; "-" when unknown) may be logged now; false
    /// (and counted) past the budget. `reason`: a short stable word for the kind of line (a
    /// refusal's `why`, "opened", "error"…). Call it only for a line the logger's level lets through.
    public func admit(peer: String, reason: String) -> Bool {
        let time = now()
        let admitted = bucket.withLock { (bucket: inout LogBudgetBucket) -> Bool in
            let elapsed = max(0, time - bucket.last)
            bucket.last = time
            bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
            bucket.firstTokens = min(burst, bucket.firstTokens + elapsed * rate)
            var entry = bucket.peers[peer] ?? LogBudgetPeer(tokens: peerBurst, last: time)
            entry.tokens = min(peerBurst, entry.tokens + max(0, time - entry.last) * peerRate)
            entry.last = time
            defer { remember(peer, entry, in: &bucket) }
            if !entry.reasons.contains(reason) && entry.reasons.count < Self.reasonsPerPeer
                && bucket.firstTokens >= 1
            {
                entry.reasons.append(reason)
                bucket.firstTokens -= 1
                return true
            }
            guard entry.tokens >= 1, bucket.tokens >= 1 else {
                bucket.suppressed += 1
                if bucket.suppressedBy[peer] != nil || bucket.suppressedBy.count < peerCapacity {
                    bucket.suppressedBy[peer, default: 0] += 1
                }
                return false
            }
            entry.tokens -= 1
            bucket.tokens -= 1
            return true
        }
        if !admitted { Self.suppressedTotal.add(1, ordering: .relaxed) }
        return admitted
    }

    /// Stores `peer`'s entry; a new peer in a full table first forgets the one seen longest ago.
    private func remember(_ peer: String, _ entry: LogBudgetPeer, in bucket: inout LogBudgetBucket) {
        if bucket.peers[peer] == nil, bucket.peers.count >= peerCapacity,
            let oldest = bucket.peers.min(by: { $0.value.last < $1.value.last })
        {
            bucket.peers[oldest.key] = nil
        }
        bucket.peers[peer] = entry
    }

    /// Peers remembered now (bounded by `peerCapacity`).
    public var peersRemembered: Int { bucket.withLock { (bucket: inout LogBudgetBucket) in bucket.peers.count } }

    /// Lines suppressed since the last call, and the peers that caused most of them (at most
    /// `summaryPeers`, most first), for the summary line.
    public func takeSuppressed() -> (lines: Int, top: [(peer: String, lines: Int)]) {
        bucket.withLock { (bucket: inout LogBudgetBucket) in
            defer {
                bucket.suppressed = 0
                bucket.suppressedBy.removeAll(keepingCapacity: false)
            }
            let top = bucket.suppressedBy.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(Self.summaryPeers)
            return (bucket.suppressed, top.map { (peer: $0.key, lines: $0.value) })
        }
    }
}

/// `LogBudget`'s buckets, under its mutex (a type of its own so the TSan suppression can name
/// it: Tests/tsan.supp).
struct LogBudgetBucket {
    var tokens: Double
    /// The bucket of first lines per (peer, reason).
    var firstTokens: Double
    var last: Double
    var peers: [String: LogBudgetPeer] = [:]
    var suppressed = 0
    /// Since the last summary; at most `peerCapacity` peers (others are in `suppressed` only).
    var suppressedBy: [String: Int] = [:]
}

/// One peer's bucket and the reasons it has had a line for.
struct LogBudgetPeer {
    var tokens: Double
    var last: Double
    var reasons: [String] = []
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
            let fresh = published.registry !== metrics.registry
            if fresh { published = LogStatsPublished(registry: metrics.registry) }
            // Looked up (and made, the first time) only when they change: a lookup allocates.
            if fresh || dropped != published.dropped {
                metrics.logLinesDropped.increment(by: Int64(dropped - published.dropped))
            }
            if fresh || suppressed != published.suppressed {
                metrics.logLinesSuppressed.increment(by: Int64(suppressed - published.suppressed))
            }
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
                helpText: "Client-caused log lines (refusals, opens, closes, errors, lws) past the budget."))
    }
}
