import TransitionCore

/// What the executor (and the replay, and the tests) ask a hub: read-only views of its sessions
/// and connections, and the in-place access the frame cache and the reactions use.
extension SessionHub {
    /// Sessions on this thread.
    public var sessionCount: Int { sessions.count }

    /// The session a connection drives or watches (here, or on another thread), if any.
    public func session(of connection: ConnectionID) -> String? {
        switch connections[connection]?.role {
        case .driver(let id), .viewer(let id), .remoteViewer(let id): return id
        case .idle, nil: return remoteViewers[connection]
        }
    }

    /// What a connection does now (for logs and metrics); nil for a connection this hub does not know.
    public func role(of connection: ConnectionID) -> ConnectionRole? {
        switch connections[connection]?.role {
        case .driver: return .driver
        case .viewer, .remoteViewer: return .viewer
        case .idle: return .idle
        case nil: return nil
        }
    }

    /// Runs `body` on a session's state where the dictionary holds it, without mutating the hub
    /// (`FrameCache` encodes frames from it); nil for a session not here.
    func withCore<R>(of session: String, _ body: (borrowing SessionCore) -> R) -> R? {
        guard let index = sessions.index(forKey: session) else { return nil }
        return body(sessions.values[index].core)
    }

    /// Runs `body` on the session stored in the dictionary, in place — for reads too.
    /// `sessions[id]!.x = …` would move the whole session (its engine included) out of the
    /// dictionary and back, and a read `sessions[id]!.x` (or `values[i]`'s getter) copies it
    /// (3.6 KB and a retain of all it holds): a profile at 1,000 sessions found those copies
    /// ahead of the frame encoder.
    mutating func inPlace<R, E: Error>(_ id: String, _ body: (inout HubSession) throws(E) -> R) throws(E) -> R? {
        guard let index = sessions.index(forKey: id) else { return nil }
        return try body(&sessions.values[index])
    }

    /// A session's whole state (tests compare it before and after a refusal).
    func core(of session: String) -> SessionCore? { sessions[session]?.core }

    /// Whether a session animates (a completion or a rotation: the replay's display link runs).
    public func isAnimating(_ session: String) -> Bool { sessions[session]?.core.isAnimating ?? false }

    /// Whether sessions animate at this rate in this phase (the display link skips empty phases).
    public func isTicking(fps: Int, phase: Int) -> Bool {
        guard let phases = animating[fps], phases.indices.contains(phase) else { return false }
        return !phases[phase].isEmpty
    }

    /// The engine of a session (for the replay's phase and progress).
    public func engine(of session: String) -> InteractiveTransition? { sessions[session]?.core.engine }
}
