import Testing

@testable import SandboxSession

/// The hub records each accepted pointer's `seq` (through the connections dictionary's index,
/// which allocates nothing: docs/PERFORMANCE.md, "Allocations"), so a `seq` that does not
/// increase is refused however many came before, and a refused one records nothing.
@Suite("SessionHub pointer sequence") struct SessionHubSequenceTests {
    static func pointer(_ phase: String, x: Double, t: Double, seq: Int) -> [UInt8] {
        Array(#"{"type":"pointer","phase":"\#(phase)","x":\#(x),"y":400,"t":\#(t),"seq":\#(seq)}"#.utf8)
    }

    static func errorCode(_ actions: [SessionAction]) -> String? {
        guard actions.count == 1, case .send(_, .error(let error)) = actions[0] else { return nil }
        return error.code
    }

    @Test("after 1,000 accepted moves, a repeated or older seq is refused; the next larger one is accepted")
    func sequenceIsKeptAcrossManyMessages() {
        var hub = SessionHub()
        let driver = ConnectionID(number: 1)
        var connect: [SessionAction] = []
        hub.connect(driver, session: "s", into: &connect)
        var refused = 0
        for seq in 1...1_000 {
            let phase = seq == 1 ? "down" : "move"
            let actions = hub.receiveOnOneThread(
                Self.pointer(phase, x: Double(120 + seq % 160), t: Double(seq), seq: seq), from: driver,
                at: Double(seq) / 1000)
            if Self.errorCode(actions) != nil { refused += 1 }
        }
        #expect(refused == 0)
        for stale in [1_000, 999, 1] {
            let actions = hub.receiveOnOneThread(
                Self.pointer("move", x: 200, t: 1_001, seq: stale), from: driver, at: 1.001)
            #expect(Self.errorCode(actions) == "bad-seq")
        }
        let next = hub.receiveOnOneThread(Self.pointer("move", x: 200, t: 1_001, seq: 1_001), from: driver, at: 1.001)
        #expect(Self.errorCode(next) == nil)
    }
}
