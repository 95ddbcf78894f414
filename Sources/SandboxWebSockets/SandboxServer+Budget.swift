import SandboxSession

/// The process-wide byte budget on one service thread (`ProcessBudget`, `ByteBudget`).
extension SandboxServer {
    /// Past the hard mark: this thread's connections are cut largest holder first (1008, their
    /// queues dropped, their sockets reset at close) until the whole process is back under the
    /// soft mark. Called by the connection whose charge crossed the mark, so the count passes
    /// the hard mark by at most one batch of one connection per thread
    /// (`test_process_bounds.py`). Sorting happens only then, never per message.
    func shedOverBudget() {
        let budget = group.budget
        guard budget.verdict == .shed else { return }
        let holders = connections.values.filter { $0.charged > 0 }.sorted { $0.charged > $1.charged }
        for connection in holders {
            guard budget.held > budget.marks.softBytes else { break }
            connection.shed()
        }
    }
}
