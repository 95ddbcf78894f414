/// Fan-out: what one connection's message makes for the others of its session is bounded by
/// the session's viewer limit, and paid for out of the sender's input budget.
extension SessionHub {
    /// The charge for one message of `size` bytes from `connection`: every message it caused for
    /// another connection (an event, a `configured`, a scene state, a due frame, a
    /// `session-ended`) costs its size again, so a driver's output to N viewers counts against
    /// its own rate bound as N more copies of its input (`SessionHubFanOutTests.chargesPerCopy`).
    /// A message that reached only its sender costs nothing here.
    mutating func chargeFanOut(
        of size: Int, from connection: ConnectionID, in actions: inout [SessionAction], from first: Int
    ) {
        var copies = 0
        for action in actions[first...] {
            switch action {
            case .send(let target, _), .frameDue(let target):
                if target != connection { copies += 1 }
            default:
                break
            }
        }
        if copies > 0 { actions.append(.charge(connection, bytes: copies * size)) }
    }

    /// Refuses a viewer past the session's limit (`maxViewers`), counting the viewers of every
    /// thread (those of other threads are in `viewers` too, `attachViewer`;
    /// `SessionHubFanOutTests.remoteViewersCount`).
    func checkRoom(for viewer: ConnectionID, in id: String) throws(WireError) {
        guard let viewers = inPlaceRead(id, { $0.viewers }), viewers.count >= maxViewers, !viewers.contains(viewer)
        else { return }
        throw WireError(
            .tooManyViewers,
            "session \(WireError.quoted(id)) has \(maxViewers) viewers, the most it takes; nothing changed")
    }

    /// Reads a session where the dictionary holds it (no copy of its engine).
    func inPlaceRead<R>(_ id: String, _ body: (borrowing HubSession) -> R) -> R? {
        guard let index = sessions.index(forKey: id) else { return nil }
        return body(sessions.values[index])
    }
}
