import Foundation
import Histogram
import SandboxSession
import SandboxWebSockets

/// How a latency run is shaped.
public struct LatencyOptions: Sendable {
    /// Recorded samples, over all connections.
    public var samples = 2_000
    /// Samples per second on each connection.
    public var rate = 200.0
    public var concurrency = 1
    /// Unrecorded samples per connection first (connection set-up, caches, the pan's slop).
    public var warmup = 50
    /// How long to wait for answers still missing at the end, in seconds.
    public var timeout = 10.0
    /// A simulated network asked of the server for each connection before measuring.
    public var network: NetworkConditions?
    public init() {}
}

/// One run's figures; histograms in microseconds.
public struct LatencyResult {
    /// Sandbox: pointer sent → the first frame whose `ack` ≥ its seq. Echo: message → its echo.
    public var roundTrip = LatencyResult.histogram()
    /// Sandbox only: `ping` → `pong`, a second phase on the same schedule (the protocol's floor).
    public var ping = LatencyResult.histogram()
    /// Sandbox only: the frames' `sent − received` (the server's own time).
    public var server = LatencyResult.histogram()
    /// Sandbox with a simulated network only, per sample answered by its own frame: the time
    /// the simulator held the input and the frame (`received − arrived` + `delivered − sent`),
    /// and the rest of its input → frame (the real network, the server, the client).
    public var simulated = LatencyResult.histogram()
    public var unsimulated = LatencyResult.histogram()
    public var lost = 0
    public var errors: [String] = []
    public var seconds = 0.0
    public var clientCPUSeconds = 0.0

    static func histogram() -> Histogram<UInt64> {
        Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    }
}

/// Measures input → frame latency against a sandbox server, or the round trip of an echo
/// server with the same client and schedule (the floor). Every sample has an intended send
/// time on a fixed schedule, and latency is measured from that time, so a stalled client or
/// server shows up in the figures rather than thinning the samples (no coordinated omission).
public final class LatencyProbe: ClientSocketDelegate {
    public enum Target: Sendable { case sandbox, echo }

    private let target: Target
    private let options: LatencyOptions
    private let loop: ClientLoop
    private var connections: [ObjectIdentifier: Conn] = [:]
    private var ordered: [Conn] = []
    private var result = LatencyResult()
    private var recordedSent = 0
    /// The second phase of a sandbox run: pings on the same schedule, the protocol's floor.
    private var pinging = false

    final class Conn {
        let socket: ClientSocket
        let index: Int
        var ready = false
        /// The first frame came (and, with a simulated network, its `link` echo).
        var connected = false
        var sentSamples = 0
        var seq = 0
        var pingSeq = 0
        /// seq → (intended send time, recorded?)
        var pending: [Int: (Double, Bool)] = [:]
        var pendingPings: [Int: Double] = [:]
        init(socket: ClientSocket, index: Int) {
            self.socket = socket
            self.index = index
        }
    }

    /// `url`: the server it will measure, for the kind of loop (wss:// needs TLS and its trust).
    public init(target: Target, options: LatencyOptions, for url: WebSocketURL) throws(ClientLoop.StartError) {
        self.target = target
        self.options = options
        loop = try ClientLoop(for: url)
    }

    /// Runs the measurement; `progress` hears the fraction done now and then.
    public func run(url: WebSocketURL, subprotocol: String?, progress: (Double) -> Void = { _ in }) -> LatencyResult {
        let cpuStart = ProcessStats.ownCPUSeconds()
        for index in 0..<options.concurrency {
            let socket = loop.connect(to: url, subprotocol: subprotocol, delegate: self)
            let conn = Conn(socket: socket, index: index)
            connections[ObjectIdentifier(socket)] = conn
            ordered.append(conn)
        }
        loop.run(
            until: { self.ordered.allSatisfy { $0.ready || $0.socket.isClosed } }, deadline: loop.now + options.timeout)
        let live = ordered.filter(\.ready)
        guard !live.isEmpty else {
            // One line that says why (the sockets' own errors are the same reason again).
            let why = result.errors.first.map { ": \($0)" } ?? " within \(Int(options.timeout)) s"
            result.errors = ["could not connect to \(url)\(why)"]
            return result
        }
        if live.count < ordered.count { result.errors.append("\(ordered.count - live.count) connections failed") }

        let perConnection = (options.samples + live.count - 1) / live.count + options.warmup
        let start = loop.now
        schedule(live, perConnection: perConnection, progress: { progress($0 * (self.target == .sandbox ? 0.8 : 1)) })
        result.seconds = loop.now - start
        if target == .sandbox {
            // Then pings on the same schedule (a quarter as many): the protocol's own round trip.
            pinging = true
            for conn in live { conn.sentSamples = 0 }
            schedule(
                live, perConnection: max(perConnection / 4, options.warmup + 1), progress: { progress(0.8 + $0 * 0.2) })
        }
        progress(1)
        result.lost = live.reduce(0) { $0 + $1.pending.values.filter(\.1).count }
        for conn in live { conn.socket.close() }
        loop.run(until: { live.allSatisfy(\.socket.isClosed) }, deadline: loop.now + 2)
        result.clientCPUSeconds = ProcessStats.ownCPUSeconds() - cpuStart
        return result
    }

    /// Sends `perConnection` samples on every connection at the rate, staggered evenly across
    /// connections, then waits for the answers.
    private func schedule(_ live: [Conn], perConnection: Int, progress: (Double) -> Void) {
        let start = loop.now + 0.02
        let period = 1 / options.rate
        let due = { (conn: Conn) in
            start + (Double(conn.sentSamples) + Double(conn.index) / Double(live.count)) * period
        }
        var lastProgress = 0.0
        while true {
            let now = loop.now
            var next = Double.infinity
            for conn in live where !conn.socket.isClosed {
                var at = due(conn)
                while at <= now && conn.sentSamples < perConnection {
                    send(conn, intended: at, recorded: conn.sentSamples >= options.warmup)
                    at = due(conn)
                }
                if conn.sentSamples < perConnection { next = min(next, at) }
            }
            if now - lastProgress > 0.1 {
                lastProgress = now
                let done = live.reduce(0) { $0 + $1.sentSamples }
                progress(Double(done) / Double(perConnection * live.count))
            }
            if next == .infinity { break }
            loop.run(until: { false }, deadline: next)
        }
        loop.run(
            until: {
                live.allSatisfy { $0.pending.isEmpty && $0.pendingPings.isEmpty } || live.allSatisfy(\.socket.isClosed)
            },
            deadline: loop.now + options.timeout)
    }

    private func send(_ conn: Conn, intended: Double, recorded: Bool) {
        if pinging {
            conn.sentSamples += 1
            conn.pingSeq += 1
            if recorded { conn.pendingPings[conn.pingSeq] = intended }
            conn.socket.send(ClientMessages.ping(seq: conn.pingSeq, t: 1000 + intended * 1000))
            return
        }
        conn.seq += 1
        conn.sentSamples += 1
        if recorded { recordedSent += 1 }
        let t = 1000 + intended * 1000
        // Moves sweep 120…280 pt, inside the default 200 pt distance: the pan tracks throughout.
        let x = 200 + 80 * sin(Double(conn.seq) * 0.3)
        let phase = conn.seq == 1 ? "down" : "move"
        conn.pending[conn.seq] = (intended, recorded)
        conn.socket.send(ClientMessages.pointer(phase, x: x, y: 400, t: t, seq: conn.seq))
    }

    // MARK: - ClientSocketDelegate

    public func socketOpened(_ socket: ClientSocket) {
        if target == .echo { connections[ObjectIdentifier(socket)]?.ready = true }
    }

    public func socket(_ socket: ClientSocket, received message: UnsafeRawBufferPointer) {
        let arrived = loop.now
        guard let conn = connections[ObjectIdentifier(socket)] else { return }
        switch target {
        case .echo:
            guard let seq = FrameFields.number("seq", in: message).map(Int.init) else { return }
            settle(conn, upTo: seq, exactly: true, at: arrived)
        case .sandbox:
            if FrameFields.isType("frame", message) {
                if !conn.connected {
                    conn.connected = true
                    if let network = options.network {
                        socket.send(ClientMessages.network(network))  // ready at its `link` echo
                    } else {
                        conn.ready = true
                    }
                }
                guard let ack = FrameFields.number("ack", in: message).map(Int.init) else { return }
                if let entry = conn.pending[ack], entry.1,
                    let sent = FrameFields.number("sent", in: message),
                    let received = FrameFields.number("received", in: message)
                {
                    _ = result.server.record(UInt64(max(sent - received, 0) * 1000))
                    if options.network != nil {
                        // Both stamps are absent when the simulator held nothing (0 ms).
                        let heldIn = FrameFields.number("arrived", in: message).map { received - $0 } ?? 0
                        let heldOut = FrameFields.number("delivered", in: message).map { $0 - sent } ?? 0
                        let simulated = max(heldIn + heldOut, 0) / 1000
                        _ = result.simulated.record(UInt64(simulated * 1e6))
                        _ = result.unsimulated.record(UInt64(max(arrived - entry.0 - simulated, 0) * 1e6))
                    }
                }
                settle(conn, upTo: ack, exactly: false, at: arrived)
            } else if FrameFields.isType("link", message) {
                conn.ready = true
            } else if FrameFields.isType("pong", message),
                let seq = FrameFields.number("seq", in: message).map(Int.init),
                let intended = conn.pendingPings.removeValue(forKey: seq)
            {
                _ = result.ping.record(UInt64(max(arrived - intended, 0) * 1e6))
            } else if FrameFields.isType("error", message) {
                result.errors.append(String(decoding: message, as: UTF8.self))
            }
        }
    }

    /// Records every pending sample up to `seq` (a frame acknowledges all earlier input).
    private func settle(_ conn: Conn, upTo seq: Int, exactly: Bool, at arrived: Double) {
        if exactly {
            if let (intended, recorded) = conn.pending.removeValue(forKey: seq), recorded {
                _ = result.roundTrip.record(UInt64(max(arrived - intended, 0) * 1e6))
            }
            return
        }
        for (pendingSeq, entry) in conn.pending where pendingSeq <= seq {
            conn.pending[pendingSeq] = nil
            if entry.1 { _ = result.roundTrip.record(UInt64(max(arrived - entry.0, 0) * 1e6)) }
        }
    }

    public func socketClosed(_ socket: ClientSocket, code: Int?, error: String?) {
        if let error {
            result.errors.append(error)
        } else if let code, code != 1000 {
            result.errors.append("closed with \(code)")
        }
    }
}
