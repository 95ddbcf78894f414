import Testing
import TransitionCore

@testable import SandboxSession

/// The thread's table cache and build budget (`PredictionTables`): a hit returns the same table
/// and bytes without building, another configuration misses, the cache keeps at most
/// `capacity`, the least recently used out first, and builds past the budget get none until
/// the bucket refills.
@Suite("PredictionTables")
struct PredictionTablesTests {
    static func configuration(_ kind: TransitionKind = .pop, duration: Double = 0.5) -> TransitionConfiguration {
        var c = TransitionConfiguration(kind: kind)
        c.duration = duration
        return c
    }

    /// The pop's spring at damping 0.05: more samples than a table holds, the costliest build
    /// (`PredictionTableTests.aPictureBeyondTheSampleBoundHasNoTable`); a longer duration, more
    /// swings.
    static func worst(_ duration: Double) -> TransitionConfiguration {
        var c = configuration(.pop, duration: duration)
        c.springDamping = 0.05
        return c
    }

    @Test func aHitReturnsTheSameBytesWithoutBuilding() throws {
        var tables = PredictionTables()
        let first = tables.table(for: Self.configuration(), at: 1)
        let again = tables.table(for: Self.configuration(), at: 1)
        #expect(first.built && !again.built && tables.builds == 1)
        let table = try #require(first.table)
        #expect(again.table == table && again.table?.body == table.body)
        #expect(table.body == TrackingTable.encodedBody(table.samples, table.configuration))
        let text = ServerMessages.encode(.prediction(table), headroom: 0).text
        #expect(text == #"{"type":"prediction","table":"# + String(decoding: table.body, as: UTF8.self) + "}")
    }

    @Test func anotherConfigurationMisses() {
        var tables = PredictionTables()
        _ = tables.table(for: Self.configuration(duration: 0.5), at: 1)
        let other = tables.table(for: Self.configuration(duration: 0.6), at: 1)
        #expect(other.built && tables.builds == 2)
        #expect(other.table?.configuration.duration == 0.6)
    }

    @Test func theCacheKeepsTheMostRecentlyUsed() {
        var tables = PredictionTables()
        let n = PredictionTables.capacity
        var now = 1.0
        for i in 0..<n {
            _ = tables.table(for: Self.configuration(duration: 0.3 + Double(i) * 0.01), at: now)
            now += 1
        }
        // The first one used again, then one more: the second is the one dropped.
        #expect(!tables.table(for: Self.configuration(duration: 0.3), at: now).built)
        #expect(tables.table(for: Self.configuration(duration: 0.9), at: now).built)
        #expect(tables.entries.count == n)
        #expect(!tables.table(for: Self.configuration(duration: 0.3), at: now).built)
        #expect(tables.table(for: Self.configuration(duration: 0.31), at: now).built)
    }

    @Test func aTableThatNeedsTooMuchIsCachedAsNone() {
        var tables = PredictionTables()
        let first = tables.table(for: Self.worst(0.6), at: 1)
        #expect(first.built && first.table == nil)
        let again = tables.table(for: Self.worst(0.6), at: 1)
        #expect(!again.built && again.table == nil && tables.builds == 1)
    }

    /// `sampleBurst` worth of worst-case builds at once, the next gets none unbuilt; a quarter
    /// of a second later (`samplesPerSecond`) one more is built.
    @Test func buildsPastTheBudgetGetNone() {
        var tables = PredictionTables()
        let burst = Int(PredictionTables.sampleBurst / PredictionTables.worstBuild)
        for i in 0..<burst { #expect(tables.table(for: Self.worst(0.6 + Double(i) * 0.01), at: 1).built) }
        let over = tables.table(for: Self.worst(0.95), at: 1.001)
        #expect(!over.built && over.table == nil && tables.builds == burst)
        let cheap = tables.table(for: Self.configuration(), at: 1.001)
        #expect(!cheap.built && cheap.table == nil)
        let later = 1 + PredictionTables.worstBuild / PredictionTables.samplesPerSecond
        #expect(tables.table(for: Self.worst(0.95), at: later + 0.001).built)
    }
}
