import TransitionCore

/// The tracking tables one service thread (one `SessionHub`) has built, and its budget for
/// building more (docs/SECURITY.md, prediction): a table costs tens of milliseconds of CPU at
/// worst, and a connection's own bucket does not bound what many connections, or one that
/// reconnects, make the thread build.
///
/// - The cache: the last `capacity` outcomes, keyed by the table's only input (the engine's
///   configuration, what `TrackingPicture` is made of), least recently used first out. An
///   outcome is a table (at most `maximumBytes` encoded) or none (the picture needs more
///   samples or bytes than a table holds): a hit returns it, encoded bytes included, at no cost.
/// - The budget: a bucket of samples (a build's cost is about proportional to the samples it
///   takes, `TrackingTable.maximumSamples` + 1 for one that gives up), `samplesPerSecond` a
///   second and `sampleBurst` at once, shared by all the thread's connections and refilled on
///   the hub's clock (`now` comes in as an argument: the module reads no clock). A build starts
///   only while the bucket holds the worst case, so the thread never builds more than
///   `samplesPerSecond` worth a second, sustained; a miss before that has no table.
///
/// `PredictionTablesTests` holds each rule.
struct PredictionTables: Equatable {
    static let capacity = 16
    /// The worst build's cost, in samples.
    static let worstBuild = Double(TrackingTable.maximumSamples + 1)
    /// Two worst-case builds a second (a dozen of the pop's default table), four at once.
    static let samplesPerSecond = 2 * worstBuild
    static let sampleBurst = 4 * worstBuild
    /// The largest table kept or sent, encoded: a quarter of the reply queue's byte bound
    /// (`ConnectionLimits.queuedBytes`), so one table never fills it. So the cache holds at
    /// most `capacity` × 64 KiB of encoded tables (and their samples).
    static let maximumBytes = 64 * 1024

    struct Entry: Equatable {
        let configuration: TransitionConfiguration
        let table: TrackingTable?
    }

    /// Least recently used first.
    private(set) var entries: [Entry] = []
    private(set) var tokens = sampleBurst
    private var refilled: Double?
    /// Tables built so far (misses the budget paid for).
    private(set) var builds = 0

    /// The table of `configuration` at `now`: the cached outcome, else one built when the
    /// budget allows (and cached), else nil. `built` says whether this call built it.
    mutating func table(for configuration: TransitionConfiguration, at now: Double) -> (
        table: TrackingTable?, built: Bool
    ) {
        if let index = entries.firstIndex(where: { $0.configuration == configuration }) {
            let entry = entries.remove(at: index)
            entries.append(entry)
            return (entry.table, false)
        }
        let elapsed = max(now - (refilled ?? now), 0)
        tokens = min(tokens + elapsed * Self.samplesPerSecond, Self.sampleBurst)
        refilled = now
        // The zoom's dismissal follows the finger in two dimensions: not a function of the
        // fraction, so no table predicts it (SessionZoomTests.aZoomDismissalHasNoPredictionTable).
        let zoomDismissal = configuration.kind == .zoom && configuration.operation == .dismiss
        guard tokens >= Self.worstBuild, !zoomDismissal,
            let picture = try? TrackingPicture(configuration: configuration)
        else {
            return (nil, false)
        }
        builds += 1
        var table = TrackingTable(picture)
        tokens -= table.map { Double($0.samples.count) } ?? Self.worstBuild
        if let built = table, built.encodedCount > Self.maximumBytes { table = nil }
        if entries.count >= Self.capacity { entries.removeFirst() }
        entries.append(Entry(configuration: configuration, table: table))
        return (table, true)
    }
}
