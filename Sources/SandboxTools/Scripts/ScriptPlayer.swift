/// How a replay reaches a server: in-process on a virtual clock, or over a WebSocket in real time.
protocol ReplayTransport {
    var observer: ReplayObserver { get }
    /// Connects and applies the script's configuration (nil: the server's defaults).
    mutating func start(config: String?) throws(ScriptError)
    /// Sends one message at script time `ms`; `seq` for pointer messages.
    mutating func send(_ text: String, atMs ms: Double, seq: Int?) throws(ScriptError)
    /// Waits from script time `ms` until `condition` holds; returns the script time it held at.
    mutating func wait(for condition: PanScript.WaitCondition, fromMs ms: Double, timeoutMs: Double) throws(ScriptError)
        -> Double
    mutating func stop()
}

/// Walks a script's steps, turning them into timed protocol messages.
struct ScriptPlayer {
    /// The client clock (ms) at the script's start: any value works, the server anchors it.
    static let clientEpoch = 1000.0

    private(set) var now = 0.0  // script time, ms
    /// Whether the transport connected and took the configuration: until then there is no run
    /// whose expectations could be checked.
    private(set) var started = false
    private var seq = 0
    private var positions: [Int: (x: Double, y: Double)] = [:]

    /// Plays every step, then waits for the transition to rest; returns the script's length (ms).
    mutating func play<T: ReplayTransport>(_ script: PanScript, on transport: inout T) throws(ScriptError) -> Double {
        try transport.start(config: script.configJSON)
        started = true
        transport.observer.startCounting()
        for (index, step) in script.steps.enumerated() {
            do {
                try perform(step, on: &transport)
            } catch {
                throw ScriptError("steps[\(index)]: \(error.description)")
            }
        }
        now = try transport.wait(for: .rest, fromMs: now, timeoutMs: PanScript.defaultTimeoutMs)
        transport.stop()
        return now
    }

    private mutating func perform<T: ReplayTransport>(_ step: PanScript.Step, on transport: inout T) throws(ScriptError)
    {
        switch step {
        case let .down(x, y, pointer):
            positions[pointer] = (x, y)
            try pointerMessage("down", x, y, pointer, at: now, on: &transport)
        case let .move(x, y, relative, ms, hz, pointer):
            guard let from = positions[pointer] else { throw ScriptError("pointer \(pointer) moves before it is down") }
            let to = relative ? (x: from.x + x, y: from.y + y) : (x: x, y: y)
            let count = max(Int((ms * hz / 1000).rounded()), 1)
            let start = now
            for i in 1...count {
                let f = Double(i) / Double(count)
                let position = (x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)
                try pointerMessage("move", position.x, position.y, pointer, at: start + ms * f, on: &transport)
            }
            positions[pointer] = to
            now = start + ms
        case let .samples(samples, pointer):
            guard positions[pointer] != nil else { throw ScriptError("pointer \(pointer) moves before it is down") }
            let start = now
            for sample in samples {
                try pointerMessage("move", sample[1], sample[2], pointer, at: start + sample[0], on: &transport)
                positions[pointer] = (sample[1], sample[2])
            }
            now = start + (samples.last?[0] ?? 0)
        case .hold(let ms):
            now += ms
        case .up(let pointer), .cancel(let pointer):
            guard let at = positions[pointer] else { throw ScriptError("pointer \(pointer) is not down") }
            let phase = if case .up = step { "up" } else { "cancel" }
            try pointerMessage(phase, at.x, at.y, pointer, at: now, on: &transport)
            positions[pointer] = nil
        case .play:
            transport.observer.sentPlay()
            try transport.send(ClientMessages.play, atMs: now, seq: nil)
        case let .sceneMessage(_, json):
            transport.observer.sentSceneMessage()
            try transport.send(json, atMs: now, seq: nil)
        case let .wait(condition, timeoutMs):
            now = try transport.wait(for: condition, fromMs: now, timeoutMs: timeoutMs)
            transport.observer.waitMet()
        }
    }

    private mutating func pointerMessage<T: ReplayTransport>(
        _ phase: String, _ x: Double, _ y: Double, _ pointer: Int, at ms: Double, on transport: inout T
    ) throws(ScriptError) {
        seq += 1
        let t = Self.clientEpoch + ms
        let text = ClientMessages.pointer(phase, x: x, y: y, t: t, seq: seq, pointerId: pointer)
        try transport.send(text, atMs: ms, seq: seq)
    }
}
