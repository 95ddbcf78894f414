import Testing

@testable import SandboxSession

/// `ByteBuffer.append(contentsOf:)`'s short copies (overlapping words for 4–16 bytes) write exactly
/// the source's bytes at the end, at every length and offset, and keep what was there.
struct ByteBufferTests {
    @Test(arguments: 0...40)
    func appendCopiesExactlyTheBytes(_ length: Int) {
        let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for start in 0..<8 {
            let buffer = ByteBuffer(capacity: 4)
            buffer.append(UInt8(ascii: "<"))
            source.withUnsafeBytes { bytes in
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]))
            }
            buffer.append(UInt8(ascii: ">"))
            let written = Array(UnsafeRawBufferPointer(start: buffer.base, count: buffer.count))
            #expect(written == [UInt8(ascii: "<")] + source[start..<(start + length)] + [UInt8(ascii: ">")])
        }
    }
}
