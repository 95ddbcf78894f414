import Testing

@testable import SandboxSession

/// `serve --prebuilt-frames`' message: the bytes `ws-floor stream --bytes N` sends
/// (tools/floor/ws-floor.c: `{"type":"frame","pad":"` then `x`s then `"}`, N bytes in all).
@Suite("Padding frames") struct PaddingFrameTests {
    @Test(arguments: [25, 26, 265, 4096, 65536])
    func theStreamersBytesExactly(size: Int) throws {
        let frame = FrameEncoding.padding(bytes: size, headroom: 16)
        let message = frame.full
        #expect(message.payloadCount == size)
        #expect(message.headroom == 16)
        let text = message.text
        #expect(text.hasPrefix(#"{"type":"frame","pad":""#) && text.hasSuffix(#""}"#))
        #expect(text.dropFirst(23).dropLast(2).allSatisfy { $0 == "x" })
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(value["type"]?.string == "frame")
    }

    @Test func sentWholeToEveryoneInEitherProtocol() {
        let frame = FrameEncoding.padding(bytes: 265, headroom: 0)
        #expect(frame.baseID == nil && frame.delta == nil)
        #expect(frame.message(after: nil).text == frame.message(after: frame.id).text)
        #expect(frame.message(after: frame.id, in: .v1).text == frame.full.text)
    }

    @Test func theSmallestIsTheEmptyPad() {
        #expect(FrameEncoding.padding(bytes: 25, headroom: 0).full.text == #"{"type":"frame","pad":""}"#)
    }

    /// What a simulated link is charged for holding it (`bytes`): protocol 1's message is the
    /// full one, one buffer, so it is counted once — twice over, a 64 KiB frame took half a
    /// link's room (`queuedBytes`) and the link dropped nearly every frame before delivering it.
    /// A copy for another thread keeps the one buffer too (one copy made, one counted).
    @Test func oneBufferChargedOnceAndCopiedOnce() {
        let frame = FrameEncoding.padding(bytes: 65536, headroom: 16)
        #expect(frame.bytes >= 65536 && frame.bytes < 65536 + 1024)
        let copy = frame.copy()
        #expect(copy.bytes >= 65536 && copy.bytes < 65536 + 1024)
        #expect(copy.message(after: nil, in: .v1).text == frame.full.text)
        #expect(copy.message(after: nil, in: .v2).text == frame.full.text)
    }
}
