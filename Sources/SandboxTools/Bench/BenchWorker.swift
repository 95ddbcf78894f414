import Foundation
import Histogram
import SandboxSession
import SandboxWebSockets

/// What a bench run asks of each session.
public struct BenchPlan: Sendable {
    public var url: WebSocketURL
    /// Sandbox sessions are configured and played; a plain streamer is only listened to.
    public var isSandbox = true
    public var fps = 60
    /// When the measurement window opens and closes, on one clock shared by every thread.
    public var origin: ContinuousClock.Instant
    public var windowStart = 3.0
    public var windowEnd = 8.0

    public init(url: WebSocketURL, origin: ContinuousClock.Instant) {
        self.url = url
        self.origin = origin
    }
}

/// What one client thread saw in the window.
public struct BenchCounts {
    public var sessions = 0
    public var connected = 0
    public var frames = 0
    /// Payload bytes of the frames counted.
    public var frameBytes = 0
    public var onTime = 0
    /// Frames per second of the slowest session.
    public var slowestFPS = Double.infinity
    /// |inter-frame interval − 1/fps|, microseconds.
    public var jitter = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    public var errors: [String] = []

    mutating func add(_ other: BenchCounts) {
        sessions += other.sessions
        connected += other.connected
        frames += other.frames
        frameBytes += other.frameBytes
        onTime += other.onTime
        slowestFPS = min(slowestFPS, other.slowestFPS)
        jitter.add(other.jitter)
        errors += other.errors
    }
}

/// One client thread's share of the sessions: its own libwebsockets loop, connections, counts.
/// Lives on the thread that calls `run()`.
final class BenchWorker: ClientSocketDelegate, @unchecked Sendable {
    private let plan: BenchPlan
    private let count: Int
    private var loop: ClientLoop!
    // This thread only; touched for every frame received (no dynamic exclusivity bookkeeping).
    @exclusivity(unchecked) private var sessions: [ObjectIdentifier: SessionState] = [:]
    @exclusivity(unchecked) private var counts = BenchCounts()
    /// This loop's clock at `plan.origin`.
    private var originOnLoop = 0.0

    final class SessionState {
        let socket: ClientSocket
        @exclusivity(unchecked) var ready = false
        @exclusivity(unchecked) var lastArrival: Double?
        @exclusivity(unchecked) var frames = 0
        init(socket: ClientSocket) { self.socket = socket }
    }

    init(plan: BenchPlan, count: Int) {
        self.plan = plan
        self.count = count
    }

    func run() -> BenchCounts {
        do {
            loop = try ClientLoop(for: plan.url)
        } catch {
            counts.errors.append(error.description)
            return counts
        }
        originOnLoop = loop.now - (ContinuousClock.now - plan.origin).inSeconds
        counts.sessions = count
        for _ in 0..<count {
            let socket = loop.connect(
                to: plan.url, subprotocol: plan.isSandbox ? sandboxSubprotocol : nil, delegate: self)
            sessions[ObjectIdentifier(socket)] = SessionState(socket: socket)
        }
        loop.run(until: { false }, deadline: originOnLoop + plan.windowEnd)
        let window = plan.windowEnd - plan.windowStart
        for state in sessions.values where state.ready {
            counts.connected += 1
            counts.slowestFPS = min(counts.slowestFPS, Double(state.frames) / window)
        }
        if counts.connected == 0 { counts.slowestFPS = 0 }
        for state in sessions.values { state.socket.close() }
        loop.run(until: { self.sessions.values.allSatisfy(\.socket.isClosed) }, deadline: loop.now + 3)
        return counts
    }

    // MARK: - ClientSocketDelegate

    func socketOpened(_ socket: ClientSocket) {
        guard let state = sessions[ObjectIdentifier(socket)] else { return }
        state.ready = true
        if plan.isSandbox {
            // A continuous completion: the longest duration, played, and played again when done.
            socket.send(ClientMessages.configure(fps: plan.fps, duration: 60))
            socket.send(ClientMessages.play)
        }
    }

    func socket(_ socket: ClientSocket, received message: UnsafeRawBufferPointer) {
        let arrived = loop.now - originOnLoop
        guard let state = sessions[ObjectIdentifier(socket)] else { return }
        if plan.isSandbox {
            if FrameFields.isType("transition", message), FrameFields.number("progress", in: message) == 1 {
                socket.send(ClientMessages.play)
                return
            }
            if FrameFields.isType("error", message) {
                counts.errors.append(String(decoding: message, as: UTF8.self))
                return
            }
            guard FrameFields.isType("frame", message) else { return }
        }
        defer { state.lastArrival = arrived }
        guard arrived >= plan.windowStart, arrived < plan.windowEnd else { return }
        state.frames += 1
        counts.frames += 1
        counts.frameBytes += message.count
        guard let last = state.lastArrival else { return }
        let period = 1 / Double(plan.fps)
        let jitter = abs(arrived - last - period)
        _ = counts.jitter.record(UInt64(jitter * 1e6))
        if jitter <= period / 2 { counts.onTime += 1 }
    }

    func socketClosed(_ socket: ClientSocket, code: Int?, error: String?) {
        let now = loop.now - originOnLoop
        if now < plan.windowEnd { counts.errors.append(error ?? "closed with \(code.map(String.init) ?? "no code")") }
    }
}
