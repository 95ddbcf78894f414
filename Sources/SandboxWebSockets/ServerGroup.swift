import Dispatch
import Foundation
import SandboxSession
import Synchronization

/// The sandbox server as a whole: one or more service threads (`SandboxServer`, one
/// libwebsockets context each), the first listening and dealing accepted sockets to all of
/// them in turn (Debian's lws cannot share a port between contexts); the registry of sessions
/// by thread, so that a viewer on any thread can `join` a session on any other; the connection
/// count `--max-connections` holds against; and the order of shutdown.
public final class ServerGroup: Sendable {
    public enum StartError: Error, CustomStringConvertible {
        case invalidOption(String)
        case listenFailed(host: String, port: Int)
        /// A failure to listen explained (`ListenFailure`): a port in use, a certificate and key
        /// that are not a pair.
        case cannotListen(String)
        public var description: String {
            switch self {
            case .invalidOption(let message): return message
            case let .listenFailed(host, port): return "could not listen on \(host):\(port)"
            case .cannotListen(let why): return why
            }
        }
    }

    public let threads: Int
    /// Open WebSocket connections across the threads.
    let openConnections = ConnectionCounter()
    /// Bytes held for clients across the threads, against `--byte-budget` (`ByteBudget`).
    let budget: ByteBudget
    /// Open connections and handshakes per client address, across the threads.
    let peers: PeerLimits
    /// Set by the first `requestShutdown`: when draining and the log's flush end.
    public let shutdown = ShutdownDeadline()
    // Set once in init, before any thread runs; read-only after.
    nonisolated(unsafe) private var servers: [SandboxServer] = []
    /// Which thread hosts each session (only with more than one thread).
    private let directory = Mutex(SessionDirectory())
    /// The listening thread's round robin.
    private let nextPeer = Atomic<Int>(0)

    /// Creates every thread's context; the first listens. Returns once the port is bound.
    public init(options: ServerOptions, threads: Int = 1) throws(StartError) {
        guard threads >= 1 else { throw .invalidOption("--threads must be at least 1") }
        self.threads = threads
        budget = ByteBudget(options.budget)
        peers = PeerLimits(options: options)
        // Checked before libwebsockets sees them: it starts with a key of another type than the
        // certificate (an RSA certificate, an EC key) and then fails every handshake.
        if let cert = options.tlsCertificate, let key = options.tlsKey,
            let problem = ListenFailure.tlsProblem(cert: cert, key: key)
        {
            throw .cannotListen(problem)
        }
        var options = options
        for index in 0..<threads {
            do throws(StartError) {
                LWSLog.hold()
                servers.append(try SandboxServer(options: options, thread: index, group: self))
                LWSLog.release(explained: false)
            } catch .listenFailed {
                let explanation = ListenFailure.explain(options)
                LWSLog.release(explained: explanation != ListenFailure.unexplained(options))
                throw .cannotListen(explanation)
            } catch {
                LWSLog.release(explained: false)
                throw error
            }
            options.listens = false
        }
    }

    /// The bound port (useful with port 0).
    public var port: Int { servers[0].port }

    /// The most WebSocket connections the group accepts at once.
    var maxConnections: Int { servers[0].limits.maxConnections ?? ConnectionLimits.defaultMaxConnections }
    /// Accepted sockets at or past this descriptor number are closed at once (`filterNetworkConnection`).
    let descriptorCeiling = ConnectionLimits.descriptorCeiling

    /// Serves on this thread and `threads - 1` more until `requestShutdown()` (or, with
    /// `stopOnSignals`, SIGINT or SIGTERM); returns when every thread has closed its
    /// connections (1001) and destroyed its context. `whenReady` runs once the signals are
    /// handled and before any thread serves (the ready line: whoever waits for it may signal).
    /// With `stopOnSignals` the caller blocks SIGINT and SIGTERM before starting any thread.
    public func run(stopOnSignals: Bool = false, whenReady: () -> Void = {}) {
        var sources: [DispatchSourceSignal] = []
        if stopOnSignals {
            // The caller has blocked SIGINT/SIGTERM (`serve` does, before any thread starts);
            // libdispatch reads them from a signalfd. No SIG_IGN first: setting it discards a
            // signal already pending, so a SIGTERM that came during start-up was lost and the
            // server ran on (measured: started with the signals blocked, as `bench` starts it,
            // and terminated within 10 ms, it never exited).
            for signal in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
                source.setEventHandler { [self] in requestShutdown() }
                source.resume()
                sources.append(source)
            }
        }
        whenReady()
        let done = DispatchGroup()
        for server in servers.dropFirst() {
            done.enter()
            Thread {
                server.run()
                done.leave()
            }.start()
        }
        servers[0].run()
        done.wait()
        sources.forEach { $0.cancel() }
    }

    /// Thread-safe, and safe again during or after teardown.
    public func requestShutdown() {
        shutdown.start()
        servers.forEach { $0.requestShutdown() }
    }

    // MARK: - For the threads

    func server(_ thread: Int) -> SandboxServer? { servers.indices.contains(thread) ? servers[thread] : nil }

    /// The server the listening thread hands the next accepted socket to; nil with one thread.
    func nextServer() -> SandboxServer? {
        guard threads > 1 else { return nil }
        return servers[nextPeer.wrappingAdd(1, ordering: .relaxed).oldValue % threads]
    }

    func host(of session: String) -> Int? { directory.withLock { $0.hosts[session] } }
    func register(_ session: String, on thread: Int) { directory.withLock { $0.hosts[session] = thread } }
    func unregister(_ session: String) { _ = directory.withLock { $0.hosts.removeValue(forKey: session) } }
}

/// Which service thread hosts each session, under the group's mutex (a type of its own so the
/// TSan suppression can name it: Tests/tsan.supp).
struct SessionDirectory {
    var hosts: [String: Int] = [:]
}

/// The number of open WebSocket connections of a server group, shared by its threads.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add(_ delta: Int) { count.add(delta, ordering: .relaxed) }
}
