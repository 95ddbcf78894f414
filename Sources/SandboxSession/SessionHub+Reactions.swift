import TransitionCore

/// Ticks and reactions: what a session did goes to its connections, and its display link.
extension SessionHub {
    // MARK: - Ticks

    /// The display link of this frame rate fired at `now` (s) in `phase` (0..<tickPhases):
    /// the sessions animating at it in that phase advance — those of `window` (all of them
    /// unless the executor's `FrameBudget` shares an overloaded thread out) that have a
    /// connection able to take a frame (`outputBlocked`). A session skipped is not advanced:
    /// its engine's time is an argument, so at its next tick the animation is where the clock
    /// says (the frames between are dropped, not the time). Returns how many advanced.
    @discardableResult
    public mutating func tick(
        fps: Int, phase: Int = 0, at now: Double, window: TickWindow = .all, into actions: inout [SessionAction]
    ) -> Int {
        guard let phases = animating[fps], phases.indices.contains(phase) else { return 0 }
        let ids = phases[phase]
        // The set is not touched while iterated (a mutation would copy it once per session:
        // quadratic per tick); the sessions that came to rest leave it afterwards.
        var rested: [String] = []
        var advanced = 0
        // Not mutated in the loop: a reference, not a copy.
        let outputs = connections
        let count = min(window.count ?? ids.count, ids.count)
        var index = ids.isEmpty ? ids.startIndex : ids.index(ids.startIndex, offsetBy: window.start % ids.count)
        for _ in 0..<count {
            let id = ids[index]
            ids.formIndex(after: &index)
            if index == ids.endIndex { index = ids.startIndex }
            // Every set member is a live session listed under this rate (`apply`, `leave`);
            // checked anyway, so a slip costs a skipped tick, not the process.
            // One lookup per session per tick (`send` changes nothing of the session).
            let ticked = inPlace(id) { session -> TickOutcome in
                guard Self.anyoneTakesFrames(driver: session.driver, viewers: session.viewers, in: outputs) else {
                    return .skipped
                }
                let reaction = session.core.tick(at: now)
                return .ticked(reaction, session.driver, session.viewers, session.core.isAnimating)
            }
            switch ticked {
            case nil:
                rested.append(id)
            case .skipped:
                continue
            case let .ticked(reaction, driver, viewers, animates):
                advanced += 1
                send(reaction, of: id, driver: driver, viewers: viewers, into: &actions)
                if !animates { rested.append(id) }
            }
        }
        for id in rested { stopAnimating(id, fps: fps, into: &actions) }
        return advanced
    }

    /// How many sessions animate at this rate in this phase (the executor's `FrameBudget`).
    public func animatingCount(fps: Int, phase: Int) -> Int {
        guard let phases = animating[fps], phases.indices.contains(phase) else { return 0 }
        return phases[phase].count
    }

    private enum TickOutcome {
        case skipped
        case ticked(SessionReaction, ConnectionID, [ConnectionID], Bool)
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
