/// One service thread's display clock: one timer (`WakeTimer`, a timerfd in the loop) for every
/// `DisplayLink` of the thread, armed at the earliest `due` — one descriptor whatever the rates
/// clients pick (a timer per rate put the ninth rate onto lws' own timer, which spins below a
/// millisecond; `test_hostile.py` holds the CPU bound).
final class DisplayClock {
    private enum Phase { case idle, firing }

    private unowned let server: SandboxServer
    /// The links that run, by frame rate.
    private var links: [Int: DisplayLink] = [:]
    private lazy var timer = WakeTimer { [unowned self] in self.fired() }
    /// While firing, the links' own re-arming waits: the clock is armed once, after all fired.
    private var phase = Phase.idle

    init(server: SandboxServer) {
        self.server = server
    }

    /// `startTicking`: runs the rate's link, or makes a running one plan again.
    func start(fps: Int, phases: Int) {
        if let link = links[fps] { return link.start() }
        let link = DisplayLink(fps: fps, phases: phases, server: server)
        links[fps] = link
        link.start()
    }

    /// `stopTicking`: the clock scans only the links that run.
    func stop(fps: Int) {
        links[fps]?.stop()
        links[fps] = nil
    }

    /// Arms the timer at the earliest due link (or disarms it).
    func arm() {
        guard phase == .idle, let context = server.context else { return }
        if let next = links.values.lazy.compactMap(\.due).min() {
            timer.schedule(on: context, after: next - server.clock.now)
        } else {
            timer.cancel(on: context)
        }
    }

    private func fired() {
        phase = .firing
        let now = server.clock.now
        // 50 µs of tolerance: the clock is armed in whole microseconds, truncated.
        for link in links.values where (link.due ?? .infinity) <= now + 50e-6 { link.fire(at: now) }
        phase = .idle
        arm()
    }

    /// Teardown, before the context goes.
    func release() {
        for link in links.values { link.stop() }
        links.removeAll()
        timer.release()
    }
}
