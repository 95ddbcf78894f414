import Testing

@testable import SandboxWebSockets

/// The send-buffer estimate never claims room the last measure plus the writes since does not
/// show, and asks the kernel again after a few writes.
@Suite("Send room estimate") struct SendRoomEstimateTests {
    @Test func unmeasuredItAsks() {
        #expect(!SendRoomEstimate().fits(wire: 1))
    }

    @Test func itCountsEveryWriteAgainstTheMeasure() {
        // 2·(queued + wire) + 4096 ≤ size: 8,000 then 2,000 fill 24,096 exactly.
        var estimate = SendRoomEstimate(size: 24_096, queued: 0)
        #expect(estimate.fits(wire: 8_000))
        estimate.wrote(8_000)
        #expect(!estimate.fits(wire: 2_001))
        #expect(estimate.fits(wire: 2_000))
    }

    @Test func itAsksAgainAfterAFewWrites() {
        var estimate = SendRoomEstimate(size: 1 << 20, queued: 0)
        for _ in 0..<SendRoomEstimate.remeasureAfter {
            #expect(estimate.fits(wire: 100))
            estimate.wrote(100)
        }
        #expect(!estimate.fits(wire: 100))
    }

    @Test func itCountsWhatTheKernelHoldsForTheBudget() {
        var estimate = SendRoomEstimate(size: 131_072, queued: 1_000)
        estimate.wrote(600)
        #expect(estimate.queuedBytes == 1_600)
        // The fixed buffer takes at most half of itself less 2 KiB of payload.
        #expect(SendRoom.fits(size: 2 * SendRoom.fixedBufferBytes, queued: 63_488 - 100, wire: 100))
        #expect(!SendRoom.fits(size: 2 * SendRoom.fixedBufferBytes, queued: 63_488 - 99, wire: 100))
    }
}
