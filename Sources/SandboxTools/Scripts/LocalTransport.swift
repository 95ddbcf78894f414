import SandboxSession

/// Replays in-process on a `VirtualSession`: script milliseconds are the virtual clock, the
/// display link ticks between inputs, waits fast-forward. Same script, byte-identical frames.
/// The latency it records is the wall time the session took per pointer message (parse,
/// engine, encode): the server's own cost, with no network. With a simulated network the
/// session's link holds every message (deterministic for its seed); no latency is recorded
/// then (the session's work happens at the deliveries, not at the send).
struct LocalTransport: ReplayTransport {
    let observer = ReplayObserver()
    private var session: VirtualSession
    private let simulatesNetwork: Bool
    private let clock = ContinuousClock()
    /// Virtual time (s) of script time 0: after the welcome and the configuration arrived.
    private var origin = 0.0

    init(fps: Int = 60, network: NetworkConditions = .loopback) {
        session = VirtualSession(id: "local", fps: fps, network: network)
        simulatesNetwork = network.isActive
        observer.timesRoundTrips = false
    }

    mutating func start(config: String?) throws(ScriptError) {
        deliver(session.connect(at: 0))
        runUntilQuiet()
        if let config {
            deliver(session.receive(config, at: session.now))
            runUntilQuiet()
            if !observer.configured {
                throw ScriptError("the configuration was refused: \(observer.errors.last ?? "no answer")")
            }
        }
        origin = session.now
    }

    mutating func send(_ text: String, atMs ms: Double, seq: Int?) throws(ScriptError) {
        let time = origin + ms / 1000
        runTicks(through: time)
        if let seq { observer.sentPointer(seq: seq, at: 0) }
        let started = clock.now
        let replies = session.receive(text, at: time)
        let elapsed = clock.now - started
        if seq != nil && !simulatesNetwork {
            observer.recordLatency(seconds: elapsed.inSeconds)
        }
        deliver(replies)
    }

    mutating func wait(for condition: PanScript.WaitCondition, fromMs ms: Double, timeoutMs: Double) throws(ScriptError)
        -> Double
    {
        runTicks(through: origin + ms / 1000)
        var now = ms
        while !observer.satisfies(condition) {
            guard let tick = session.nextTick else {
                throw ScriptError(
                    "waiting for '\(condition.rawValue)', but the transition is \(observer.phase) and nothing is running"
                )
            }
            let tickMs = (tick - origin) * 1000
            guard tickMs <= ms + timeoutMs else {
                throw ScriptError("'\(condition.rawValue)' did not happen within \(timeoutMs) ms")
            }
            deliver(session.tick())
            now = max(now, tickMs)
        }
        return now
    }

    mutating func stop() {}

    /// Fires the display link (and the network's deliveries) for everything due by `time` (s).
    private mutating func runTicks(through time: Double) {
        while let tick = session.nextTick, tick <= time {
            deliver(session.tick())
        }
    }

    /// Before the script starts nothing animates: carries out every delivery still held.
    private mutating func runUntilQuiet() {
        while session.nextTick != nil { deliver(session.tick()) }
    }

    private func deliver(_ replies: [String]) {
        for reply in replies { observer.received(reply, at: 0) }
    }
}
