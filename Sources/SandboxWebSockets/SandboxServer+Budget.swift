import CLibWebSockets
import SandboxSession

/// The process-wide byte budget on one service thread (`ProcessBudget`, `ByteBudget`).
extension SandboxServer {
    /// Past the hard mark: this thread's connections are cut largest holder first (1008, their
    /// queues dropped, their sockets reset at close) until the whole process is back under the
    /// soft mark or this thread holds no more than its share of it (the soft mark over the
    /// threads). Called by the connection whose charge crossed the mark, so the count passes
    /// the hard mark by at most one batch of one connection per thread
    /// (`test_process_bounds.py`); the crossing thread then wakes the others, which shed the
    /// same way (`wokenUp`). A thread never cuts its own small holders for bytes another thread
    /// holds: never-readers on one thread cannot get an innocent client on another one cut
    /// (`test_hostile_bounds.py`). Sorting happens only then, never per message.
    func shedOverBudget(wakingOthers: Bool = true) {
        let budget = group.budget
        guard budget.verdict == .shed else { return }
        let share = budget.marks.softBytes / group.threads
        let holders = connections.values.filter { $0.charged > 0 }.sorted { $0.charged > $1.charged }
        var own = holders.reduce(0) { $0 + $1.charged }
        for connection in holders {
            guard budget.held > budget.marks.softBytes, own > share else { break }
            own -= connection.charged
            connection.shed()
        }
        guard wakingOthers, group.threads > 1, budget.held > budget.marks.softBytes else { return }
        for index in 0..<group.threads where index != thread { group.server(index)?.wake() }
    }

    /// Thread-safe: wakes this thread's loop (`wokenUp`), if it still serves.
    func wake() {
        crossThread.withLock { state in
            if let context = state.context { lws_cancel_service(context) }
        }
    }
}
