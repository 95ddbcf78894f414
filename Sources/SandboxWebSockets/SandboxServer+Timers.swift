import SandboxSession

// The connections' timers: the network lab's due deliveries and the write retries of a full
// socket, and what a blocked or flowing socket tells the hub (OutputBlockedTests).
extension SandboxServer {
    /// A connection's link holds something due at `due`: the network scheduler fires by then.
    func networkHolds(_ connection: Connection, due: Double) { networkScheduler.holds(connection, due: due) }

    /// A connection found no room: retry it on the shared tick; its sessions may stop ticking.
    func writeBlocked(_ connection: Connection) {
        writeRetries.add(connection)
        hub.outputBlocked(connection.id)
    }

    /// A blocked connection wrote again (the retry tick saw it): its sessions tick again.
    func writeFlowing(_ connection: ConnectionID) { hub.outputFlowing(connection) }
}
