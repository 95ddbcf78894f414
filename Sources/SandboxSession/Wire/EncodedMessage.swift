/// A finished message: the bytes after the headroom are the JSON text. Every queue and cache
/// holding it shares one buffer (a reference): `lws_write` writes the WebSocket header into the
/// headroom in place, and every connection writes the same header for the same payload, so
/// sharing is harmless. A struct around that reference, not an object of its own: one
/// allocation less per message, two per frame (a profile counted 11 per frame).
public struct EncodedMessage: @unchecked Sendable {  // immutable but for that header region
    private let bytes: ByteBuffer
    /// Bytes reserved before the payload (libwebsockets' LWS_PRE, or 0).
    public let headroom: Int

    init(bytes: ByteBuffer, headroom: Int) {
        self.bytes = bytes
        self.headroom = headroom
    }

    /// The payload's bytes `range` (offsets from the payload's start).
    func payload(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: bytes.base + headroom + range.lowerBound, count: range.count)
    }

    /// The payload's length in bytes.
    public var payloadCount: Int { bytes.count - headroom }

    /// The bytes this message keeps allocated (its buffer's capacity, and the objects).
    var retainedBytes: Int { bytes.capacity + 64 }

    /// Whether `other` is this message's buffer too (a padding frame's protocol 1 message is
    /// its full one: counted and copied once, `PaddingFrameTests.oneBufferChargedOnceAndCopiedOnce`).
    func sharesBuffer(with other: EncodedMessage) -> Bool { bytes === other.bytes }

    /// The JSON text (without the headroom).
    public var text: String {
        String(decoding: UnsafeRawBufferPointer(start: bytes.base + headroom, count: payloadCount), as: UTF8.self)
    }

    /// Runs `body` with a pointer to the buffer's start (headroom included), as lws_write wants.
    public func withBuffer<R>(_ body: (UnsafeMutablePointer<UInt8>) -> R) -> R {
        body(bytes.base.assumingMemoryBound(to: UInt8.self))
    }

    /// A copy of this object message with one more number field at its end, in its own buffer
    /// (a simulated link stamps each frame it delivers with `delivered`; the shared encoding
    /// stays as it was). `self` must be a JSON object (ends with `}`).
    /// `value` is a server time in ms, written at frames' precision (`FramePrecision`).
    public func appending(_ key: StaticString, milliseconds value: Double) -> EncodedMessage {
        precondition(
            payloadCount >= 2 && bytes.base.load(fromByteOffset: bytes.count - 1, as: UInt8.self) == UInt8(ascii: "}"))
        var w = JSONWriter(headroom: headroom, capacity: payloadCount + 48)
        w.appendRaw(UnsafeRawBufferPointer(start: bytes.base + headroom, count: payloadCount - 1))
        w.key(key)
        w.fixed(value, FramePrecision.milliseconds)
        w.appendRaw(UnsafeRawBufferPointer(start: bytes.base + bytes.count - 1, count: 1))
        return w.finish()
    }

    /// A copy with its own buffer (for another thread, which must not share the header region
    /// with this one's writes).
    public func copy() -> EncodedMessage {
        let copied = ByteBuffer(capacity: bytes.count)
        copied.reserveHeadroom(headroom)
        copied.append(contentsOf: UnsafeRawBufferPointer(start: bytes.base + headroom, count: bytes.count - headroom))
        return EncodedMessage(bytes: copied, headroom: headroom)
    }
}
