import Testing

@testable import SandboxWebSockets

/// `PeerTable`: the per-address state at the door, and its bound against an attacker who
/// chooses how many addresses it shows.
@Suite struct PeerTableTests {
    @Test func handshakesPastTheBurstAreRefusedThenRefillAtTheRate() {
        var table = PeerTable(capacity: 16, rate: 20, burst: 40)
        let burst = (0..<100).filter { _ in table.takeHandshake("10.0.0.1", at: 0) }.count
        #expect(burst == 40)
        let other = table.takeHandshake("10.0.0.2", at: 0)
        #expect(other)  // another address has its own bucket
        let next = (0..<100).filter { _ in table.takeHandshake("10.0.0.1", at: 0.5) }.count
        #expect(next == 10)
    }

    @Test func openConnectionsAreCountedPerAddress() {
        var table = PeerTable(capacity: 16, rate: 20, burst: 40)
        for _ in 0..<3 { table.opened("10.0.0.1", at: 0) }
        table.opened("10.0.0.2", at: 0)
        table.closed("10.0.0.1", at: 1)
        #expect(table.openConnections(of: "10.0.0.1") == 2)
        #expect(table.openConnections(of: "10.0.0.2") == 1)
        table.closed("10.0.0.2", at: 10)
        table.closed("10.0.0.2", at: 10)  // a close more than opened stays at zero
        #expect(table.openConnections(of: "10.0.0.2") == 0)
        #expect(table.entries["10.0.0.2"] == nil)  // equal to a fresh entry: forgotten
    }

    @Test func aNewAddressForEveryHandshakeStaysWithinTheCapacity() {
        var table = PeerTable(capacity: 64, rate: 20, burst: 40)
        for index in 0..<5_000 {
            _ = table.takeHandshake("10.\(index / 65_536).\(index / 256 % 256).\(index % 256)", at: Double(index) / 1e6)
            #expect(table.entries.count <= 64)
        }
    }

    /// Addresses holding connections are never forgotten (their counts would be lost); the table
    /// then holds the capacity plus those addresses, which the connection limit bounds.
    @Test func addressesHoldingConnectionsAreNeverForgotten() {
        var table = PeerTable(capacity: 8, rate: 20, burst: 40)
        for index in 0..<8 { table.opened("10.0.0.\(index)", at: 0) }
        for index in 0..<100 { _ = table.takeHandshake("10.0.1.\(index)", at: 0) }
        for index in 0..<8 { #expect(table.openConnections(of: "10.0.0.\(index)") == 1) }
        #expect(table.entries.count <= 8 + 8)
    }

    /// A drained bucket is remembered while the table has room: waiting, not reconnecting, refills it.
    @Test func aDrainedBucketIsNotForgottenWhileThereIsRoom() {
        var table = PeerTable(capacity: 8, rate: 1, burst: 2)
        let first = table.takeHandshake("10.0.0.1", at: 0)
        let second = table.takeHandshake("10.0.0.1", at: 0)
        for index in 0..<6 { _ = table.takeHandshake("10.0.1.\(index)", at: 0) }
        let third = table.takeHandshake("10.0.0.1", at: 0.1)
        #expect(first && second && !third)
    }
}
