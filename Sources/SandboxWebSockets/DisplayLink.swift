import SandboxSession

/// One shared tick per frame rate, like `CADisplayLink`: the server's hub advances every session
/// animating at that rate, paced by `PhasedTickSchedule` (absolute targets, no drift, a tick
/// dropped only a whole period late). Started and stopped by the hub's actions. The period is divided into phases
/// (`SessionHub.tickPhases`): the link fires once per phase that has sessions, each time for
/// that phase's sessions, so every session ticks once a period at its phase's offset.
///
/// It has no timer of its own: the thread's one display clock (`DisplayClock`, a
/// timerfd) wakes the loop at the earliest `due` of its links and fires those that are due.
final class DisplayLink {
    let fps: Int
    let phases: Int
    private unowned let server: SandboxServer
    /// Nil while stopped.
    private var schedule: PhasedTickSchedule?
    var due: Double? { schedule?.due }

    init(fps: Int, phases: Int, server: SandboxServer) {
        self.fps = fps
        self.phases = phases
        self.server = server
    }

    /// Starts ticking; while running, plans again (a phase that had no session may have one).
    func start() {
        let now = server.clock.now
        if schedule == nil { schedule = PhasedTickSchedule(fps: fps, phases: phases, start: now) }
        plan(now: now)
        server.armDisplayClock()
    }

    func stop() {
        schedule = nil
        server.armDisplayClock()
    }

    /// The display clock found this link due at `now`: its phase's sessions advance, unless the
    /// target is a whole period late (then the phase's next one is due and ticks instead).
    func fire(at now: Double) {
        guard let due else { return }
        server.metrics?.tickFired(late: now - due)
        guard let phase = schedule?.handle(at: now) else {
            plan(now: now)
            return
        }
        server.tick(fps: fps, phase: phase, at: now)
        plan(now: now)  // nothing if the tick stopped it
    }

    private func plan(now: Double) {
        let (server, fps) = (server, fps)
        schedule?.plan(now: now) { server.isTicking(fps: fps, phase: $0) }
    }
}
