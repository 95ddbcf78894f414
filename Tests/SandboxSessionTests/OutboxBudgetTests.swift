import Testing

@testable import SandboxSession

/// The process-wide byte budget as the pure side meets it: the verdict by mark, what an outbox
/// counts as held, the cut of a largest holder (exact actions), and the hub refusing a new
/// network link past the soft mark without changing anything.
@Suite("Outbox byte budget") struct OutboxBudgetTests {
    let driver = ConnectionID(number: 1)

    @Test func verdictsByMark() {
        let budget = ProcessBudget(bytes: 4000)
        #expect(budget.softBytes == 3000)
        #expect(budget.verdict(held: 0) == .within)
        #expect(budget.verdict(held: 3000) == .within)
        #expect(budget.verdict(held: 3001) == .refuseLinks)
        #expect(budget.verdict(held: 4000) == .refuseLinks)
        #expect(budget.verdict(held: 4001) == .shed)
        #expect(ProcessBudget().bytes == 256 * 1024 * 1024)
    }

    @Test func heldBytesCountRepliesAndTheLinkBothWays() {
        var outbox = OutboxTests.outbox()
        _ = outbox.enqueue(OutboxTests.message(300), at: 0)
        #expect(outbox.heldBytes == 300)
        outbox.setLink(NetworkConditions(delayMs: 100))
        _ = outbox.enqueue(OutboxTests.message(200), at: 0)
        _ = outbox.received(Array("{}".utf8), binary: false, at: 0)
        let link = outbox.link!
        #expect(link.heldOutboundBytes > 200 && link.heldInboundBytes > 2)
        #expect(outbox.heldBytes == 300 + link.heldOutboundBytes + link.heldInboundBytes)
        // Written replies leave the count.
        _ = OutboxTests.writable(&outbox)
        #expect(outbox.heldBytes == link.heldOutboundBytes + link.heldInboundBytes)
    }

    @Test func closingHoldsNothing() {
        var outbox = OutboxTests.outbox()
        _ = outbox.enqueue(OutboxTests.message(500), at: 0)
        _ = outbox.close(1001, "server shutting down")
        #expect(outbox.queuedBytes == 500)
        #expect(outbox.heldBytes == 0)
    }

    @Test func shedDropsAndResets() {
        var outbox = OutboxTests.outbox()
        outbox.setLink(NetworkConditions(delayMs: 100))
        _ = outbox.enqueue(OutboxTests.message(400), at: 0)
        #expect(outbox.heldBytes > 400)
        #expect(outbox.overBudget(.within) == [])
        #expect(outbox.overBudget(.refuseLinks) == [])
        #expect(outbox.heldBytes > 400)
        #expect(
            outbox.overBudget(.shed)
                == [.resetOnClose, .closing(code: 1008), .kill(after: 1), .requestWritable])
        #expect(outbox.state == .closing(.init(code: 1008, reason: Outbox.overBudgetReason)))
        #expect(outbox.heldBytes == 0 && outbox.queuedBytes == 0 && outbox.link == nil)
        // Once only; then the close frame, and nothing after it.
        #expect(outbox.overBudget(.shed) == [])
        #expect(OutboxTests.writable(&outbox) == [.sendClose(code: 1008, reason: Outbox.overBudgetReason)])
        #expect(OutboxTests.writable(&outbox) == [])
    }

    @Test func newLinksRefusedOverBudget() {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        hub.admitsNewLinks = false
        let before = hub
        let refused = hub.receiveOnOneThread(
            Array(#"{"type":"configure","network":{"delayMs":200},"fps":30}"#.utf8), from: driver, at: 1)
        guard refused.count == 1, case .send(driver, .error(let error)) = refused[0] else {
            Issue.record("expected one error, got \(refused)")
            return
        }
        #expect(error.code == "over-budget")
        #expect(hub == before)
        // Turning a link off, or setting loopback, is never refused.
        let off = NetworkConditions()
        #expect(
            hub.receiveOnOneThread(Array(#"{"type":"configure","network":{"delayMs":0}}"#.utf8), from: driver, at: 2)
                == [.setLink(driver, off), .send(driver, .link(off))])
        // Under the mark again, the same link is admitted.
        hub.admitsNewLinks = true
        let link = NetworkConditions(delayMs: 200)
        #expect(
            hub.receiveOnOneThread(Array(#"{"type":"configure","network":{"delayMs":200}}"#.utf8), from: driver, at: 3)
                == [.setLink(driver, link), .send(driver, .link(link))])
    }

    @Test func anExistingLinkMayChangeOverBudget() {
        var hub = SessionHub(network: NetworkConditions(delayMs: 50))
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        hub.admitsNewLinks = false
        let link = NetworkConditions(delayMs: 80)
        #expect(
            hub.receiveOnOneThread(Array(#"{"type":"configure","network":{"delayMs":80}}"#.utf8), from: driver, at: 1)
                == [.setLink(driver, link), .send(driver, .link(link))])
    }
}
