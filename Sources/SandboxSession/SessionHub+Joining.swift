import TransitionCore

/// Joining: a `join` here or on another thread, and the viewers other threads send here.
extension SessionHub {
    mutating func join(
        _ id: String, _ connection: ConnectionID, requestID: RequestID?, into actions: inout [SessionAction]
    ) throws(WireError) {
        switch connections[connection]?.role {
        case .driver(id):
            throw WireError(.invalidField, "'session' is the session this connection already drives")
        case .viewer(id), .remoteViewer(id):
            throw WireError(.invalidField, "'session' is the session this connection already watches")
        default:
            break
        }
        if sessions[id] != nil {
            try checkRoom(for: connection, in: id)
            leave(connection, into: &actions)
            connections[connection]?.role = .viewer(id)
            sessions[id]!.viewers.append(connection)
            actions.append(
                .send(connection, .configured(session: id, settings: sessions[id]!.core.settings, joined: true)))
            if let scene = sessions[id]!.core.scene { actions.append(.send(connection, .sceneState(scene.report))) }
            actions.append(.frameDue(connection))
        } else {
            actions.append(.lookUp(connection, session: id, id: requestID))
        }
    }

    /// The executor's answer to `.lookUp`: another thread hosts the session; that thread is
    /// asked to attach the connection, which goes on doing what it did until the answer
    /// (`remoteJoinAccepted`, or a refusal: `remoteWatchEnded`;
    /// `joiningASessionOfAnotherThreadWatchesItThere`). A join asked before and not answered
    /// yet is withdrawn.
    public mutating func watchElsewhere(
        _ connection: ConnectionID, session id: String, into actions: inout [SessionAction]
    ) {
        guard connections[connection] != nil else { return }
        withdrawRemoteJoin(of: connection, into: &actions)
        connections[connection]?.remoteJoin = id
        actions.append(.watchElsewhere(connection, session: id))
    }

    /// The other thread accepted the join it was asked (its `joined` arrived): the connection
    /// leaves what it did and watches that session. False when it no longer waits for this
    /// answer (it joined something else since): the executor drops the message.
    public mutating func remoteJoinAccepted(
        _ connection: ConnectionID, session id: String, into actions: inout [SessionAction]
    ) -> Bool {
        guard connections[connection]?.remoteJoin == id else { return false }
        connections[connection]?.remoteJoin = nil
        leave(connection, into: &actions)
        connections[connection]?.role = .remoteViewer(id)
        return true
    }

    /// A join asked of another thread and not answered: that thread is told to forget it.
    mutating func withdrawRemoteJoin(of connection: ConnectionID, into actions: inout [SessionAction]) {
        guard let asked = connections[connection]?.remoteJoin else { return }
        connections[connection]?.remoteJoin = nil
        actions.append(.stopWatchingElsewhere(connection, session: asked))
    }

    /// The executor's answer to `.lookUp`: no thread hosts the session; the join is refused with
    /// `unknown-session` and nothing changed (`errorsChangeNothing`).
    public mutating func lookUpFailed(
        _ connection: ConnectionID, session id: String, requestID: RequestID?, into actions: inout [SessionAction]
    ) {
        guard connections[connection] != nil else { return }
        var error = WireError(.unknownSession, "no session \(WireError.quoted(id))")
        error.requestID = requestID
        actions.append(.send(connection, .error(error)))
    }

    // MARK: - Viewers from other threads

    /// Another thread's connection asks to watch a session of this thread (`watchElsewhere`
    /// there). Answered like a local `join`; if the session has ended meanwhile, with
    /// `unknown-session`, and if it has `maxViewers` already, with `too-many-viewers` (either
    /// ends the watch over there; `SessionHubFanOutTests.remoteViewersCount`).
    public mutating func attachViewer(_ viewer: ConnectionID, to id: String, into actions: inout [SessionAction]) {
        guard let session = sessions[id] else {
            actions.append(.send(viewer, .error(WireError(.unknownSession, "no session \(WireError.quoted(id))"))))
            return
        }
        do throws(WireError) {
            try checkRoom(for: viewer, in: id)
        } catch {
            actions.append(.send(viewer, .error(error)))
            return
        }
        if let watched = remoteViewers[viewer] { sessions[watched]?.viewers.removeAll { $0 == viewer } }
        remoteViewers[viewer] = id
        sessions[id]!.viewers.append(viewer)
        actions.append(.send(viewer, .configured(session: id, settings: session.core.settings, joined: true)))
        if let scene = session.core.scene { actions.append(.send(viewer, .sceneState(scene.report))) }
        actions.append(.frameDue(viewer))
    }

    /// The other thread's viewer left (closed, or joined something else).
    public mutating func detachViewer(_ viewer: ConnectionID, from id: String) {
        guard remoteViewers[viewer] == id else { return }
        remoteViewers[viewer] = nil
        sessions[id]?.viewers.removeAll { $0 == viewer }
    }

    /// This thread's connection watched a session elsewhere, which ended: it watches nothing
    /// now. Or it asked to, and was refused (the session had ended, or had no room): it goes on
    /// doing what it did.
    public mutating func remoteWatchEnded(_ connection: ConnectionID, session id: String) {
        if connections[connection]?.remoteJoin == id { connections[connection]?.remoteJoin = nil }
        if connections[connection]?.role == .remoteViewer(id) { connections[connection]?.role = .idle }
    }

    /// The session this thread's connection asked to watch elsewhere was gone when the executor
    /// looked (it ended in between): answered as a `join` that found nothing, nothing changed.
    public mutating func remoteJoinFailed(
        _ connection: ConnectionID, session id: String, into actions: inout [SessionAction]
    ) {
        guard connections[connection]?.remoteJoin == id else { return }
        connections[connection]?.remoteJoin = nil
        actions.append(.send(connection, .error(WireError(.unknownSession, "no session \(WireError.quoted(id))"))))
    }
}
