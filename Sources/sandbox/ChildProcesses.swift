import Foundation
import Synchronization

/// The processes `bench` starts (its own server, the `--floor` streamer), stopped when bench
/// returns and also on SIGINT, SIGTERM or SIGHUP: `Process` starts each child in a process group
/// of its own, so a terminal's Ctrl-C (or its closing) does not reach them, and without this
/// they were left running (listening, waking 60 times a second) under init (the hostile review).
///
/// A child inherits the blocked SIGINT/SIGTERM (`Process` does not reset the mask): `sandbox
/// serve` blocks them anyway and reads them from libdispatch, `ws-floor` unblocks them first
/// thing. Unblocking them here around each spawn instead let a signal in that window kill bench
/// by the default action, leaving the children (seen in CI).
final class ChildProcesses: @unchecked Sendable {  // the state behind a mutex; Process is thread-safe to terminate
    private struct State {
        var children: [Process] = []
        /// Set once a signal came: nothing more is started.
        var stopping = false
    }

    private let state = Mutex(State())
    private var sources: [DispatchSourceSignal] = []

    /// Takes SIGINT, SIGTERM and SIGHUP from now on: the children are stopped, then bench exits
    /// 128 + the signal (130, 143, 129), as a shell reports it. Call before any thread or child starts:
    /// the signals are blocked (threads inherit the mask) so that one arriving before libdispatch
    /// reads them stays pending instead of being lost (as `serve` does).
    init() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { [self] in
                stop(all: state.withLock { state in
                    state.stopping = true
                    defer { state.children.removeAll() }
                    return state.children
                })
                exit(128 + signal)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Starts `process` and lists it, under the lock: a signal's handler waits for a spawn under
    /// way, so it cannot miss the child; after a signal nothing starts.
    func start(_ process: Process) throws {
        try state.withLock { state in
            guard !state.stopping else { throw CancellationError() }
            try process.run()
            state.children.append(process)
        }
    }

    /// Terminates (SIGTERM) and waits for every child still listed; each once.
    func stopAll() {
        stop(all: state.withLock { state in
            defer { state.children.removeAll() }
            return state.children
        })
    }

    private func stop(all children: [Process]) {
        for child in children where child.isRunning { child.terminate() }
        for child in children { child.waitUntilExit() }
    }
}
