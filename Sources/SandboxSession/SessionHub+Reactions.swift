import TransitionCore

/// Ticks and reactions: what a session did goes to its connections, and its display link.
extension SessionHub {
    // MARK: - Ticks

    /// The display link of this frame rate fired at `now` (s) in `phase` (0..<tickPhases):
    /// every session animating at it in that phase advances.
    public mutating func tick(fps: Int, phase: Int = 0, at now: Double, into actions: inout [SessionAction]) {
        guard let phases = animating[fps], phases.indices.contains(phase) else { return }
        let ids = phases[phase]
        // The set is not touched while iterated (a mutation would copy it once per session:
        // quadratic per tick); the sessions that came to rest leave it afterwards.
        var rested: [String] = []
        for id in ids {
            // Every set member is a live session listed under this rate (`apply`, `leave`);
            // checked anyway, so a slip costs a skipped tick, not the process.
            // One lookup per session per tick (`send` changes nothing of the session).
            guard
                let (reaction, driver, viewers, animates) = inPlace(
                    id,
                    { session in
                        (session.core.tick(at: now), session.driver, session.viewers, session.core.isAnimating)
                    })
            else {
                rested.append(id)
                continue
            }
            send(reaction, of: id, driver: driver, viewers: viewers, into: &actions)
            if !animates { rested.append(id) }
        }
        for id in rested { stopAnimating(id, fps: fps, into: &actions) }
    }

    // MARK: - Inside

    /// Sends a reaction's events and its frame to every connection of the session, and keeps
    /// the session on its display link while it animates.
    mutating func apply(_ reaction: SessionReaction, to id: String, into actions: inout [SessionAction]) {
        send(reaction, of: id, into: &actions)
        // A session leaves its display link only at a tick that finds it at rest (or when it
        // ends), as CADisplayLink-driven code would: a grab and release between two ticks keeps
        // the link's schedule. A session still listed under another rate (configured to a new
        // fps after resting between two ticks) leaves that one first: it is always listed
        // under at most one rate, the one `ticking` names.
        let (fps, listed, animates, phase) = inPlace(id) {
            ($0.core.settings.fps, $0.ticking, $0.core.isAnimating, $0.phase)
        }!
        if let listed, listed != fps { stopAnimating(id, fps: listed, into: &actions) }
        if animates {
            inPlace(id) { $0.ticking = fps }
            if animating[fps] == nil { animating[fps] = Array(repeating: [], count: tickPhases) }
            // Also when the rate runs already: its link plans again (it skips empty phases).
            if animating[fps]![phase].insert(id).inserted, animating[fps]![phase].count == 1 {
                actions.append(.startTicking(fps: fps))
            }
        }
    }

    /// A reaction's events, lifecycle callbacks, scene state and frame, to the driver and then
    /// every viewer.
    mutating func send(_ reaction: SessionReaction, of id: String, into actions: inout [SessionAction]) {
        // Read in place: a copy of the session would copy its whole engine on every event.
        let (driver, viewers) = inPlace(id) { ($0.driver, $0.viewers) }!
        send(reaction, of: id, driver: driver, viewers: viewers, into: &actions)
    }

    mutating func send(
        _ reaction: SessionReaction, of id: String, driver: ConnectionID, viewers: [ConnectionID],
        into actions: inout [SessionAction]
    ) {
        func everyone(_ message: ServerMessage) {
            actions.append(.send(driver, message))
            for viewer in viewers { actions.append(.send(viewer, message)) }
        }
        for event in reaction.events { everyone(.transition(event)) }
        for record in reaction.lifecycle { everyone(.lifecycle(record)) }
        if reaction.sceneChanged { everyone(.sceneState(inPlace(id) { $0.core.scene?.report }!)) }
        if reaction.frame {  // every pointer event and tick
            actions.append(.frameDue(driver))
            for viewer in viewers { actions.append(.frameDue(viewer)) }
        }
    }

    mutating func stopAnimating(_ id: String, fps: Int, into actions: inout [SessionAction]) {
        if sessions[id]?.ticking == fps { sessions[id]?.ticking = nil }
        // Not by the session's phase: it may be gone from `sessions` already (`leave`).
        guard let phase = animating[fps]?.firstIndex(where: { $0.contains(id) }) else { return }
        animating[fps]![phase].remove(id)
        if animating[fps]!.allSatisfy(\.isEmpty) {
            animating[fps] = nil
            actions.append(.stopTicking(fps: fps))
        }
    }

    /// Detaches a connection from what it drives or watches; a driver leaving ends its session.
    mutating func leave(_ connection: ConnectionID, into actions: inout [SessionAction]) {
        withdrawRemoteJoin(of: connection, into: &actions)
        guard let role = connections[connection]?.role else { return }
        connections[connection]?.role = .idle
        switch role {
        case .driver(let id):
            guard let session = sessions[id] else { return }
            // The rate it is listed under, which may not be its current one (see `apply`).
            if let listed = session.ticking { stopAnimating(id, fps: listed, into: &actions) }
            sessions[id] = nil
            phaseLoad[session.phase] -= 1
            actions.append(.unregister(session: id))
            for viewer in session.viewers {
                if remoteViewers.removeValue(forKey: viewer) == nil { connections[viewer]?.role = .idle }
                actions.append(.send(viewer, .sessionEnded(id)))
            }
        case .viewer(let id):
            sessions[id]?.viewers.removeAll { $0 == connection }
        case .remoteViewer(let id):
            actions.append(.stopWatchingElsewhere(connection, session: id))
        case .idle:
            break
        }
    }
}
