import SandboxSession

/// Replays in-process on a `VirtualSession`: script milliseconds are the virtual clock, the
/// display link ticks between inputs, waits fast-forward. Same script, byte-identical frames.
/// The latency it records is the wall time the session took per pointer message (parse,
/// engine, encode): the server's own cost, with no network.
struct LocalTransport: ReplayTransport {
    let observer = ReplayObserver()
    private var session: VirtualSession
    private let clock = ContinuousClock()

    init(fps: Int = 60) {
        session = VirtualSession(id: "local", fps: fps)
        observer.timesRoundTrips = false
    }

    mutating func start(config: String?) throws(ScriptError) {
        deliver(session.connect(at: 0), at: 0)
        guard let config else { return }
        deliver(session.receive(config, at: 0), at: 0)
        if !observer.configured {
            throw ScriptError("the configuration was refused: \(observer.errors.last ?? "no answer")")
        }
    }

    mutating func send(_ text: String, atMs ms: Double, seq: Int?) throws(ScriptError) {
        runTicks(through: ms / 1000)
        if let seq { observer.sentPointer(seq: seq, at: 0) }
        let started = clock.now
        let replies = session.receive(text, at: ms / 1000)
        let elapsed = clock.now - started
        if seq != nil {
            observer.recordLatency(seconds: elapsed.inSeconds)
        }
        deliver(replies, at: 0)
    }

    mutating func wait(for condition: PanScript.WaitCondition, fromMs ms: Double, timeoutMs: Double) throws(ScriptError) -> Double {
        runTicks(through: ms / 1000)
        var now = ms
        while !observer.satisfies(condition) {
            guard let tick = session.nextTick else {
                throw ScriptError("waiting for '\(condition.rawValue)', but the transition is \(observer.phase) and nothing is running")
            }
            guard tick * 1000 <= ms + timeoutMs else {
                throw ScriptError("'\(condition.rawValue)' did not happen within \(timeoutMs) ms")
            }
            deliver(session.tick(), at: 0)
            now = max(now, tick * 1000)
        }
        return now
    }

    mutating func stop() {}

    /// Fires the display link for every tick due by `time` (s).
    private mutating func runTicks(through time: Double) {
        while let tick = session.nextTick, tick <= time {
            deliver(session.tick(), at: 0)
        }
    }

    private func deliver(_ replies: [String], at time: Double) {
        for reply in replies { observer.received(reply, at: time) }
    }
}
