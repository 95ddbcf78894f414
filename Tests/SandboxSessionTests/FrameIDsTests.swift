import Testing

@testable import SandboxSession

/// Frame ids without a process-wide counter: each executor's `FrameCache` counts its own, its thread in the high bits.
@Suite("FrameIDs") struct FrameIDsTests {
    @Test func frameIDsCarryTheirThread() {
        var zero = FrameIDs(thread: 0)
        var one = FrameIDs(thread: 1)
        let first = [zero.next(), zero.next()]
        let second = [one.next(), one.next()]
        #expect(first == [1, 2])
        #expect(second == [1 << 48 + 1, 1 << 48 + 2])
        #expect(Set(first + second).count == 4)
    }

    @Test func executorsOfTwoThreadsNeverShareAFrameID() {
        var here = SessionHub(thread: 0)
        var there = SessionHub(thread: 1)
        var actions: [SessionAction] = []
        here.connect(ConnectionID(thread: 0, number: 1), session: "a", into: &actions)
        there.connect(ConnectionID(thread: 1, number: 1), session: "b", into: &actions)
        var hereFrames = FrameCache(for: here)
        var thereFrames = FrameCache(for: there)
        let a = hereFrames.frame(for: ConnectionID(thread: 0, number: 1), in: here, now: 0)
        let b = thereFrames.frame(for: ConnectionID(thread: 1, number: 1), in: there, now: 0)
        #expect(a != nil && b != nil && a?.id != b?.id)
        #expect(b.map { $0.id >> 48 } == 1)
    }
}
