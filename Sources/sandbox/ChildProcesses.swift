import Foundation
import Synchronization

/// The processes `bench` starts (its own server, the `--floor` streamer), stopped when bench
/// returns and also on SIGINT, SIGTERM or SIGHUP: `Process` starts each child in a process group
/// of its own, so a terminal's Ctrl-C (or its closing) does not reach them, and without this
/// they would be left running (listening, waking 60 times a second) under init
/// (test_bench.py: `test_an_interrupted_bench_stops_its_server_and_streamer`).
///
/// A child inherits the blocked signals (`Process` does not reset the mask): `sandbox serve`
/// blocks SIGINT/SIGTERM anyway and reads them from libdispatch (a SIGHUP stays pending: bench
/// stops it with SIGTERM), `ws-floor` unblocks them first thing. Unblocking them here around each spawn instead let a signal in that window kill bench
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
    /// 128 + the signal (130, 143, 129), as a shell reports it. Call before any thread or child
    /// starts (`blockSignals`).
    init() {
        let signals = [SIGINT, SIGTERM, SIGHUP]
        blockSignals(signals)
        for signal in signals {
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { [self] in
                // A second signal, or bench already stopping its children on its way out: that
                // one finishes (and exits); this handler has nothing to add.
                guard let children = takeChildren() else { return }
                stop(all: children)
                exit(128 + signal)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Starts `process` and lists it, under the lock: a signal's handler waits for a spawn under
    /// way, so it cannot miss the child. After a signal nothing starts, and this thread waits
    /// for the handler to exit (returning, bench would go on, or fail with a misleading error
    /// and exit first with the wrong status).
    func start(_ process: Process) throws {
        let started = try state.withLock { state in
            guard !state.stopping else { return false }
            try process.run()
            state.children.append(process)
            return true
        }
        if !started { Self.waitForTheHandler() }
    }

    /// Bench's way out, normal or by an error: stops the children; if a signal's handler is
    /// stopping them already, waits for it to exit the process with the signal's status.
    func stopAll() {
        guard let children = takeChildren() else { Self.waitForTheHandler() }
        stop(all: children)
    }

    /// The children, once: nil when stopping started already.
    private func takeChildren() -> [Process]? {
        state.withLock { state in
            guard !state.stopping else { return nil }
            state.stopping = true
            defer { state.children.removeAll() }
            return state.children
        }
    }

    private static func waitForTheHandler() -> Never {
        while true { sleep(60) }
    }

    /// SIGTERM, 2 s, then SIGKILL to the child's process group (`Process` makes each child the
    /// leader of its own): a program that ignores SIGTERM, or a wrapper script whose own child
    /// keeps `Process`'s exit notice open, hung bench in `waitUntilExit` for good.
    private func stop(all children: [Process]) {
        for child in children where child.isRunning { child.terminate() }
        let deadline = ContinuousClock.now + .seconds(2)
        for child in children {
            while child.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            if child.isRunning {
                kill(-child.processIdentifier, SIGKILL)
                kill(child.processIdentifier, SIGKILL)
            }
            child.waitUntilExit()
        }
    }
}
