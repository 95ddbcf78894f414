import SandboxSession
import Testing

@testable import SandboxWebSockets

/// The threads' shared count: changes add up whatever the interleaving, and the verdict follows.
@Suite("Byte budget") struct ByteBudgetTests {
    @Test func changesFromManyThreadsAddUp() async {
        let budget = ByteBudget(ProcessBudget(bytes: 4_000))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 {
                        budget.add(7)
                        budget.add(-7)
                    }
                }
            }
        }
        #expect(budget.held == 0 && budget.verdict == .within)
        #expect(budget.add(3_500) == 3_500 && budget.verdict == .refuseLinks)
        #expect(budget.add(501) == 4_001 && budget.verdict == .shed)
    }
}
