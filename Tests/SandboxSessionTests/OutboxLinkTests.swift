import Testing

@testable import SandboxSession

/// The simulated network through a connection's outbox: delivery order and stamps, the byte
/// bound on held output, input held and handed on, and the backlog when the reply queue is full.
@Suite("Outbox link") struct OutboxLinkTests {
    static let delay = NetworkConditions(delayMs: 100)

    static func linked(_ change: (inout ConnectionLimits) -> Void = { _ in }) -> Outbox {
        var outbox = OutboxTests.outbox(change)
        outbox.setLink(delay)
        return outbox
    }

    /// Everything written until the outbox has nothing more, as text.
    static func drain(_ outbox: inout Outbox, at now: Double) -> [String] {
        var texts: [String] = []
        while true {
            let actions = OutboxTests.writable(&outbox, at: now)
            if actions.isEmpty { return texts }
            for case .write(let message, _) in actions { texts.append(message.text) }
        }
    }

    @Test func linkKeepsOrder() {
        var outbox = Self.linked()
        let (first, second) = (OutboxTests.message(30), OutboxTests.message(31))
        let frame = FrameEncoding(whole: OutboxTests.message(40))
        #expect(outbox.enqueue(first, at: 0) == [.networkDue(0.1)])
        #expect(outbox.frameDue(at: 0.25) { frame } == [.networkDue(0.1)])
        #expect(outbox.enqueue(second, at: 0.5) == [.networkDue(0.1)])
        #expect(outbox.deliverNetwork(at: 0.05) == [])
        #expect(outbox.networkDue == 0.1)
        // Each held 100 ms from when it left; a late delivery takes all that is due, in order.
        #expect(outbox.deliverNetwork(at: 0.75) == [.requestWritable, .requestWritable, .requestWritable])
        #expect(outbox.deliveryEnded() == [])
        #expect(outbox.networkDue == nil)
        #expect(
            Self.drain(&outbox, at: 0.75) == [
                first.text, frame.full.appending("delivered", milliseconds: 750).text, second.text,
            ])
    }

    @Test func inputIsHeldThenHandedOnAfterTheOutput() {
        var outbox = Self.linked()
        let bytes = Array(#"{"type":"ping","seq":1,"t":0}"#.utf8)
        let reply = OutboxTests.message(30)
        #expect(outbox.received(bytes, binary: false, at: 0) == [.networkDue(0.1)])
        #expect(outbox.enqueue(reply, at: 0) == [.networkDue(0.1)])
        #expect(
            outbox.deliverNetwork(at: 0.1) == [
                .requestWritable, .deliverToSession(bytes, binary: false, arrived: 0),
            ])
        #expect(outbox.deliveryEnded() == [])
    }

    @Test func heldByteBound() {
        var outbox = Self.linked { $0.queuedBytes = 1000 }
        // Held frames give way to newer ones; only messages overflow.
        let older = FrameEncoding(whole: OutboxTests.message(600))
        let newer = FrameEncoding(whole: OutboxTests.message(601))
        #expect(outbox.frameDue(at: 0) { older } == [.networkDue(0.1)])
        #expect(outbox.frameDue(at: 0.01) { newer } == [.networkDue(0.11)])
        _ = outbox.deliverNetwork(at: 0.2)
        #expect(Self.drain(&outbox, at: 0.2) == [newer.full.appending("delivered", milliseconds: 200).text])
        #expect(outbox.enqueue(OutboxTests.message(600), at: 1) == [.networkDue(1.1)])
        #expect(
            outbox.enqueue(OutboxTests.message(600), at: 1) == [
                .closing(code: 1008), .kill(after: 2), .requestWritable,
            ])
    }

    @Test func linkBacklogWaitsForQueue() {
        var outbox = Self.linked { $0.pauseReplies = 4 }
        let messages = (0..<6).map { OutboxTests.message(20 + $0) }
        for message in messages { _ = outbox.enqueue(message, at: 0) }
        // Four reach the queue, the rest wait in the link with reading paused.
        #expect(
            outbox.deliverNetwork(at: 0.1) == [
                .requestWritable, .requestWritable, .requestWritable, .pauseInput, .requestWritable,
            ])
        #expect(outbox.queuedReplies == 4 && outbox.networkDue == nil)
        #expect(Self.drain(&outbox, at: 0.1) == messages.map(\.text))
        #expect(outbox.deliveryEnded() == [])
    }

    @Test func turningTheLinkOffKeepsWhatItHolds() {
        var outbox = Self.linked()
        let reply = OutboxTests.message(30)
        _ = outbox.enqueue(reply, at: 0)
        outbox.setLink(.loopback)
        #expect(outbox.networkDue == 0.1)
        _ = outbox.deliverNetwork(at: 0.1)
        _ = outbox.deliveryEnded()
        #expect(Self.drain(&outbox, at: 0.1) == [reply.text])
        // Idle and off: what follows goes straight to the queue.
        #expect(outbox.enqueue(reply, at: 0.2) == [.requestWritable])
    }

    @Test func closingDropsWhatTheLinkHolds() {
        var outbox = Self.linked()
        _ = outbox.enqueue(OutboxTests.message(30), at: 0)
        _ = outbox.close(1001, "server shutting down")
        #expect(outbox.networkDue == nil)
        #expect(outbox.deliverNetwork(at: 1) == [])
    }
}
