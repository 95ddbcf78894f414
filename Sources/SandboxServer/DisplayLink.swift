import CLibWebSockets

/// One shared tick per frame rate, like `CADisplayLink`: every session animating at that rate
/// advances on the same timer. Ticks are scheduled against absolute targets (start + k/fps), so
/// they do not drift; the timer stops when no session is animating.
final class DisplayLink {
    let fps: Int
    private unowned let server: SandboxServer
    private let timer: UnsafeMutablePointer<clws_timer>
    private var sessions: [ObjectIdentifier: Session] = [:]
    private var start = 0.0
    private var tickIndex = 0

    init(fps: Int, server: SandboxServer) {
        self.fps = fps
        self.server = server
        timer = clws_timer_create(nil)!
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        clws_timer_cancel(server.context, timer)
        free(timer)
    }

    var isEmpty: Bool { sessions.isEmpty }

    func add(_ session: Session) {
        let wasEmpty = sessions.isEmpty
        sessions[ObjectIdentifier(session)] = session
        if wasEmpty {
            start = server.clock.now
            tickIndex = 0
            scheduleNext()
        }
    }

    func remove(_ session: Session) {
        sessions[ObjectIdentifier(session)] = nil
        if sessions.isEmpty { clws_timer_cancel(server.context, timer) }
    }

    private func scheduleNext() {
        tickIndex += 1
        let target = start + Double(tickIndex) / Double(fps)
        var delay = target - server.clock.now
        if delay < 0 {  // fell behind (a long stall): skip missed ticks rather than burst
            tickIndex += Int((-delay * Double(fps)).rounded(.up))
            delay = start + Double(tickIndex) / Double(fps) - server.clock.now
        }
        clws_timer_schedule(server.context, timer, displayLinkFired, Int64(delay * 1e6))
    }

    fileprivate func fire() {
        let now = server.clock.now
        for session in Array(sessions.values) {
            session.tick(at: now)
            if !session.engine.phase.isAnimating { sessions[ObjectIdentifier(session)] = nil }
        }
        if !sessions.isEmpty { scheduleNext() }
    }
}

private func displayLinkFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<DisplayLink>.fromOpaque(owner).takeUnretainedValue().fire()
}
