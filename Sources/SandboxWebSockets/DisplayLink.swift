import SandboxSession

/// One shared tick per frame rate, like `CADisplayLink`: the server's hub advances every session
/// animating at that rate, paced by `TickSchedule` (absolute targets, no drift, missed ticks
/// skipped). Started and stopped by the hub's actions. The period is divided into phases
/// (`SessionHub.tickPhases`): the link fires once per phase that has sessions, each time for
/// that phase's sessions, so every session ticks once a period at its phase's offset.
///
/// It has no timer of its own: the server's one display clock (`SandboxServer.displayClock`, a
/// timerfd) wakes the loop at the earliest `due` of its links and fires those that are due.
final class DisplayLink {
    let fps: Int
    let phases: Int
    private unowned let server: SandboxServer
    /// Target k is phase k mod phases; its index is the last target fired (or the start).
    private var schedule: TickSchedule?
    /// The next target to fire, with its schedule; nil while stopped.
    private var pending: TickSchedule?
    private(set) var due: Double?

    init(fps: Int, phases: Int, server: SandboxServer) {
        self.fps = fps
        self.phases = phases
        self.server = server
    }

    /// Starts ticking; while running, plans again (a phase that had no session may have one).
    func start() {
        let now = server.clock.now
        if schedule == nil { schedule = TickSchedule(fps: fps * phases, start: now) }
        plan(now: now)
        server.armDisplayClock()
    }

    func stop() {
        schedule = nil
        pending = nil
        due = nil
        server.armDisplayClock()
    }

    /// The display clock found this link due at `now`: its phase's sessions advance.
    func fire(at now: Double) {
        guard let pending, let due else { return }
        server.metrics?.tickFired(late: now - due)
        schedule = pending
        server.tick(fps: fps, phase: pending.index % phases, at: now)
        if schedule != nil { plan(now: now) }  // the tick may have stopped it
    }

    /// The first target after the last one fired whose phase has sessions. A phase's target is
    /// skipped only when the same phase's next one is due, a period later — as a late
    /// CADisplayLink drops a frame only past a whole vsync (skipping as soon as the next
    /// phase's target passed dropped frames of its sessions whenever one phase's work ran
    /// long: the iOS review). Empty phases are not woken for (the hostile review: a session at
    /// 240 fps woke the loop 1,920 times a second at 8 phases).
    private func plan(now: Double) {
        guard var next = schedule else { return }
        let slack = Double(phases - 1) / Double(fps * phases)
        var target = next.next(notBefore: now - slack)
        var tried = 1
        while tried < phases, !server.isTicking(fps: fps, phase: next.index % phases) {
            target = next.next(notBefore: now - slack)
            tried += 1
        }
        pending = next
        due = target
    }
}
