import Foundation
import Synchronization

/// The processes `bench` starts (its own server, the `--floor` streamer), stopped when bench
/// returns and also on SIGINT or SIGTERM: `Process` starts each child in a process group of its
/// own, so a terminal's Ctrl-C does not reach them, and without this they were left running
/// (listening, waking 60 times a second) under init (the hostile review).
final class ChildProcesses: @unchecked Sendable {  // the list behind a mutex; Process is thread-safe to terminate
    private let children = Mutex<[Process]>([])
    private var sources: [DispatchSourceSignal] = []

    /// Takes SIGINT and SIGTERM from now on: the children are stopped, then bench exits 130 or
    /// 143 (128 + the signal, as a shell reports it). Call before any thread or child starts:
    /// the signals are blocked (threads inherit the mask) so that one arriving before libdispatch
    /// reads them stays pending instead of being lost (as `serve` does).
    init() {
        var signals = Self.signals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        for signal in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { [self] in
                stopAll()
                exit(128 + signal)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Starts `process` and lists it. A child inherits the starting thread's signal mask, and
    /// `Process` does not reset it: started with SIGTERM blocked, `ws-floor` could not be
    /// terminated (measured: bench then waited on it forever). So the signals are unblocked
    /// on this thread for the spawn only.
    func start(_ process: Process) throws {
        var signals = Self.signals
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        defer { pthread_sigmask(SIG_BLOCK, &signals, nil) }
        try process.run()
        children.withLock { $0.append(process) }
    }

    private static var signals: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }

    /// Terminates (SIGTERM) and waits for every child still listed; each once.
    func stopAll() {
        let all = children.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for child in all where child.isRunning { child.terminate() }
        for child in all { child.waitUntilExit() }
    }
}
