/// Whether a connection can take a frame, as the executor sees its socket: a session whose
/// driver and viewers all have a full socket is not ticked (`SessionHub.tick` skips it), so
/// nobody's frames are advanced and encoded for no reader. Inputs, not actions: the hub stays
/// a pure function of what it is told (`OutputBlockedTests`).
extension SessionHub {
    /// The executor found this connection's socket full (its `Outbox` reported `blocked`).
    public mutating func outputBlocked(_ connection: ConnectionID) {
        connections[connection]?.output = .blocked
    }

    /// The connection wrote again: its sessions tick again at their next display-link tick.
    public mutating func outputFlowing(_ connection: ConnectionID) {
        connections[connection]?.output = .flowing
    }

    /// Whether any connection of a session can take a frame now. A viewer served by another
    /// thread always counts as able (its socket is that thread's to see).
    static func anyoneTakesFrames(
        driver: ConnectionID, viewers: [ConnectionID], in connections: [ConnectionID: ConnectionState]
    ) -> Bool {
        if connections[driver]?.output != .blocked { return true }
        return viewers.contains { connections[$0]?.output != .blocked }
    }
}
