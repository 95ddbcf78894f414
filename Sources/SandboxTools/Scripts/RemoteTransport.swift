import SandboxSession
import SandboxWebSockets

extension ScriptRunner {
    /// `network`: asked of the server for this connection (`configure` `network`) before the
    /// script's configuration.
    public static func runRemote(
        _ script: PanScript, url: WebSocketURL, network: NetworkConditions? = nil, trace: Bool = false
    ) throws(ScriptError) -> ReplayReport {
        var transport = try RemoteTransport(url: url, network: network)
        return run(script, on: &transport, mode: url.description, trace: trace)
    }
}

/// Replays against a running server over a real WebSocket (libwebsockets' client), in real
/// time: each message leaves at its script time after the configuration is applied.
struct RemoteTransport: ReplayTransport {
    let observer = ReplayObserver()
    private let loop: ClientLoop
    private let url: WebSocketURL
    private let listener: Listener
    private var socket: ClientSocket?
    /// Loop time (s) of script time 0.
    private var origin = 0.0
    private static let connectTimeout = 10.0
    private let network: NetworkConditions?

    init(url: WebSocketURL, network: NetworkConditions? = nil) throws(ScriptError) {
        self.network = network
        do {
            loop = try ClientLoop(for: url)
        } catch {
            throw ScriptError(error.description)
        }
        self.url = url
        listener = Listener(observer: observer)
    }

    mutating func start(config: String?) throws(ScriptError) {
        let socket = loop.connect(to: url, delegate: listener)
        self.socket = socket
        let listener = self.listener
        loop.run(until: { listener.framesSinceOpen > 0 || socket.isClosed }, deadline: loop.now + Self.connectTimeout)
        guard listener.framesSinceOpen > 0 else {
            throw ScriptError("could not connect to \(url): \(listener.closeReason ?? "timed out")")
        }
        if let network {
            socket.send(ClientMessages.network(network))
            let observer = self.observer
            loop.run(
                until: { observer.linked || !observer.errors.isEmpty || socket.isClosed },
                deadline: loop.now + Self.connectTimeout)
            guard observer.linked else {
                throw ScriptError(
                    "the network \(network) was refused: \(observer.errors.last ?? listener.closeReason ?? "no answer")"
                )
            }
        }
        if let config {
            socket.send(config)
            let observer = self.observer
            loop.run(
                until: {
                    (observer.configured && observer.framesSinceConfigured > 0) || !observer.errors.isEmpty
                        || socket.isClosed
                },
                deadline: loop.now + Self.connectTimeout)
            guard observer.configured else {
                throw ScriptError(
                    "the configuration was refused: \(observer.errors.last ?? listener.closeReason ?? "no answer")")
            }
        }
        origin = loop.now
    }

    mutating func send(_ text: String, atMs ms: Double, seq: Int?) throws(ScriptError) {
        guard let socket else { return }
        let due = origin + ms / 1000
        loop.run(until: { socket.isClosed }, deadline: due)
        guard !socket.isClosed else {
            throw ScriptError("the server closed the connection: \(listener.closeReason ?? "")")
        }
        if let seq { observer.sentPointer(seq: seq, at: loop.now) }
        socket.send(text)
    }

    mutating func wait(for condition: PanScript.WaitCondition, fromMs ms: Double, timeoutMs: Double) throws(ScriptError)
        -> Double
    {
        guard let socket else { return ms }
        // A simulated network delays what a wait waits for by up to a round trip.
        let networkSlack = network.map { 2 * ($0.delayMs + $0.jitterMs) / 1000 } ?? 0
        let deadline = max(loop.now, origin + ms / 1000) + timeoutMs / 1000 + networkSlack
        let observer = self.observer
        loop.run(until: { observer.satisfies(condition) || socket.isClosed }, deadline: deadline)
        guard observer.satisfies(condition) else {
            if socket.isClosed { throw ScriptError("the server closed the connection: \(listener.closeReason ?? "")") }
            throw ScriptError("'\(condition.rawValue)' did not happen within \(timeoutMs) ms (phase \(observer.phase))")
        }
        return max(ms, (loop.now - origin) * 1000)
    }

    mutating func stop() {
        guard let socket, !socket.isClosed else { return }
        socket.close()
        loop.run(until: { socket.isClosed }, deadline: loop.now + 2)
    }

    /// Hands each message to the observer with its arrival time.
    final class Listener: ClientSocketDelegate {
        let observer: ReplayObserver
        private(set) var framesSinceOpen = 0
        private(set) var closeReason: String?

        init(observer: ReplayObserver) { self.observer = observer }

        func socketOpened(_ socket: ClientSocket) {}

        func socket(_ socket: ClientSocket, received message: UnsafeRawBufferPointer) {
            let arrived = socket.loop.now
            if FrameFields.isType("frame", message) { framesSinceOpen += 1 }
            observer.received(String(decoding: message, as: UTF8.self), at: arrived)
        }

        func socketClosed(_ socket: ClientSocket, code: Int?, error: String?) {
            closeReason = error ?? code.map { "closed with \($0)" } ?? "closed"
        }
    }
}
