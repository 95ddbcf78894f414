import SandboxSession
import Testing

@testable import SandboxWebSockets

/// A connection's outbox actions are gathered into storage it keeps: no array per message or
/// frame (`make alloc-count` counts what is left; docs/PERFORMANCE.md, "Allocations").
@Suite("Action buffer") struct ActionBufferTests {
    static func address(_ array: [some Any]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    /// What `Connection.receive` does with each message: gather its bytes, hand them to the
    /// outbox with the kept storage, carry the actions out, give the storage back, keep the bytes'.
    @Test("1,000 pointer messages: the actions' and the message's storage stay the same")
    func storageIsStableAcrossMessages() {
        var outbox = Outbox(limits: ConnectionLimits(), headroom: 0, at: 0)
        var buffer = ActionBuffer()
        // Room for the longest message up front, as a connection's kept storage has after its
        // first messages: the messages grow by a few digits, and under ASan (no malloc slack in
        // the capacity) the first growth otherwise moved the storage.
        var incoming: [UInt8] = []
        incoming.reserveCapacity(256)
        var actionStorage: Set<UnsafeRawPointer?> = []
        var messageStorage: Set<UnsafeRawPointer?> = []
        for seq in 1...1_000 {
            let text = #"{"type":"pointer","phase":"move","x":\#(120 + seq % 160),"y":400,"t":\#(seq),"seq":\#(seq)}"#
            incoming.append(contentsOf: text.utf8)
            messageStorage.insert(Self.address(incoming))
            var actions = buffer.take()
            // Spaced 10 ms apart: within the input rate bound, so every one is delivered.
            outbox.received(incoming, binary: false, at: Double(seq) * 0.01, into: &actions)
            #expect(actions == [.deliverToSession(incoming, binary: false, arrived: nil)])
            actionStorage.insert(Self.address(actions))
            buffer.giveBack(&actions)
            incoming.removeAll(keepingCapacity: true)
        }
        #expect(actionStorage.count == 1 && actionStorage.first! != nil)
        #expect(messageStorage.count == 1)
        #expect(buffer.capacity >= 1)
    }

    @Test("a nested take gathers into its own array; the larger storage is kept")
    func nestedTakeHasItsOwn() {
        var buffer = ActionBuffer()
        var outer = buffer.take()
        outer.reserveCapacity(16)
        outer.append(contentsOf: [.requestWritable, .pauseInput, .resumeInput])
        var inner = buffer.take()
        #expect(inner.isEmpty && inner.capacity == 0)
        inner.append(.requestWritable)
        let innerCapacity = inner.capacity
        buffer.giveBack(&inner)
        #expect(buffer.capacity == innerCapacity)
        let outerStorage = Self.address(outer)
        buffer.giveBack(&outer)
        #expect(outer.isEmpty)
        let again = buffer.take()
        #expect(Self.address(again) == outerStorage && again.isEmpty && again.capacity >= 16)
    }
}
