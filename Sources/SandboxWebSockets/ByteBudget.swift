import SandboxSession
import Synchronization

/// The process-wide byte budget's count (`ProcessBudget`), shared by every service thread: each
/// `Connection` adds the change in what it holds whenever its outbox acts, and the count's
/// verdict goes to the hub and the outboxes. One relaxed atomic add per change, never a lock.
final class ByteBudget: Sendable {
    let marks: ProcessBudget
    private let count = Atomic<Int>(0)

    init(_ marks: ProcessBudget) {
        self.marks = marks
    }

    /// Bytes held for clients now, across the threads.
    var held: Int { count.load(ordering: .relaxed) }

    var verdict: ProcessBudget.Verdict { marks.verdict(held: held) }

    /// Adds `delta` (negative: released) and returns the new count.
    @discardableResult
    func add(_ delta: Int) -> Int { count.add(delta, ordering: .relaxed).newValue }
}
