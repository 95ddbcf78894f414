import SandboxSession

/// One shared tick per frame rate, like `CADisplayLink`: the server's hub advances every session
/// animating at that rate on the same timer, paced by `TickSchedule` (absolute targets, no
/// drift, missed ticks skipped). Started and stopped by the hub's actions. With several phases
/// (`SessionHub.tickPhases`) the timer fires that many times a period, each time for the
/// sessions of the next phase: every session still ticks once per period.
final class DisplayLink {
    let fps: Int
    let phases: Int
    private unowned let server: SandboxServer
    private lazy var timer = WakeTimer(pool: server.wakeTimers) { [unowned self] in self.fire() }
    private var schedule: TickSchedule?
    /// When the scheduled tick should fire (server clock, s): its lateness is a metric.
    private var target = 0.0

    init(fps: Int, phases: Int, server: SandboxServer) {
        self.fps = fps
        self.phases = phases
        self.server = server
    }

    func start() {
        guard schedule == nil else { return }
        // Target k is phase k mod phases: skipped targets skip their phase's tick, as a late
        // display link skips frames.
        schedule = TickSchedule(fps: fps * phases, start: server.clock.now)
        scheduleNext()
    }

    /// Stops ticking and gives its timerfd back (a rate nobody animates at holds no descriptor).
    func stop() {
        schedule = nil
        timer.cancel(on: server.context)
        timer.release()
    }

    private func scheduleNext() {
        guard var schedule, let context = server.context else { return }
        let now = server.clock.now
        let target = schedule.next(notBefore: now)
        self.schedule = schedule
        self.target = target
        timer.schedule(on: context, after: target - now)
    }

    private func fire() {
        let now = server.clock.now
        server.metrics?.tickFired(late: now - target)
        let phase = (schedule?.index ?? 0) % phases
        server.tick(fps: fps, phase: phase, at: now)
        if schedule != nil { scheduleNext() }
    }
}
