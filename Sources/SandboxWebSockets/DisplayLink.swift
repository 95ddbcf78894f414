import SandboxSession

/// One shared tick per frame rate, like `CADisplayLink`: the server's hub advances every session
/// animating at that rate on the same timer, paced by `TickSchedule` (absolute targets, no
/// drift, missed ticks skipped). Started and stopped by the hub's actions.
final class DisplayLink {
    let fps: Int
    private unowned let server: SandboxServer
    private lazy var timer = LWSTimer { [unowned self] in self.fire() }
    private var schedule: TickSchedule?
    /// When the scheduled tick should fire (server clock, s): its lateness is a metric.
    private var target = 0.0

    init(fps: Int, server: SandboxServer) {
        self.fps = fps
        self.server = server
    }

    func start() {
        guard schedule == nil else { return }
        schedule = TickSchedule(fps: fps, start: server.clock.now)
        scheduleNext()
    }

    func stop() {
        schedule = nil
        timer.cancel(on: server.context)
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
        server.tick(fps: fps, at: now)
        if schedule != nil { scheduleNext() }
    }
}
