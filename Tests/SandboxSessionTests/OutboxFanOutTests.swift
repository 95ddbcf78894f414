import Testing

@testable import SandboxSession

/// A connection charged for what its messages made for others (`SessionAction.charge`): from
/// the byte bucket of its rate bound, and past it the same error and close as a flood.
@Suite("Outbox fan-out charge") struct OutboxFanOutTests {
    /// 1 KiB a second, a burst of 2 KiB, and messages enough.
    static func outbox() -> Outbox {
        OutboxTests.outbox {
            $0.bytesPerSecond = 1024
            $0.burstSeconds = 2
            $0.messageBytes = 512
        }
    }

    @Test func fanOutPastTheBudgetCloses() {
        var outbox = Self.outbox()
        #expect(outbox.chargeFanOut(bytes: 2000, at: 0) == [])
        let error = WireError(.rateLimited, "more than 2000 messages or 1 KiB per second; closing")
        #expect(
            outbox.chargeFanOut(bytes: 100, at: 0) == [
                .rateLimited(error), .requestWritable, .kill(after: 2), .closing(code: 1008), .requestWritable,
            ])
        #expect(outbox.chargeFanOut(bytes: 1, at: 9) == [])  // closing: nothing more
        #expect(
            OutboxTests.writable(&outbox) == [
                .write(ServerMessages.encode(.error(error), headroom: 0), frame: false), .requestWritable,
            ])
        #expect(OutboxTests.writable(&outbox) == [.sendClose(code: 1008, reason: "input rate limit")])
    }

    @Test func theChargeRefillsAtTheByteRateAndCountsAgainstInput() {
        var outbox = Self.outbox()
        #expect(outbox.chargeFanOut(bytes: 2000, at: 0) == [])
        #expect(outbox.chargeFanOut(bytes: 1000, at: 1) == [])  // 1 s refilled 1,024 bytes
        // What is left (72 bytes) cannot take the driver's own next message of 100.
        let ping = Array(repeating: UInt8(ascii: " "), count: 100)
        #expect(outbox.received(ping, binary: false, at: 1).contains(.closing(code: 1008)))
    }
}
