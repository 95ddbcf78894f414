/// Writes JSON straight into a byte buffer that starts with libwebsockets' `LWS_PRE` headroom,
/// so a finished message goes to `lws_write` without a copy.
///
/// Hand-written rather than `JSONEncoder`: frames are the server's hot path (60 per second per
/// session, thousands of sessions) and Foundation's encoder costs tens of microseconds per frame
/// where this costs a few. Every append avoids temporary arrays and strings (a profile at 1,000
/// sessions found them ahead of everything else); only non-integral numbers go through
/// `description`, for Swift's shortest round-trip form.
///
/// Non-copyable: a writer has one owner while it writes, and `finish()` hands its buffer to the
/// `EncodedMessage` it returns (no copy, and no second writer aliasing the same bytes).
public struct JSONWriter: ~Copyable {
    private let bytes: ByteBuffer
    private let headroom: Int
    private var needsComma = false

    public init(headroom: Int, capacity: Int = 1024) {
        self.headroom = headroom
        bytes = ByteBuffer(capacity: headroom + capacity)
        bytes.reserveHeadroom(headroom)
    }

    /// The finished message; the writer is used up.
    public consuming func finish() -> EncodedMessage {
        EncodedMessage(bytes: bytes, headroom: headroom)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = false
    }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")) }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")) }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A key that is not a literal (a pan script's `config` passed through to `configure`):
    /// escaped as a string is. Not an overload of `key(_:)`: a literal would pick this one.
    public mutating func dynamicKey(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// `value` between quotes, escaped.
    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { units in
            // The common case (ids, names): nothing to escape, one copy.
            if !units.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: units)
                return
            }
            for unit in units {
                switch unit {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(92)
                    bytes.append(unit)
                case 0x0A:
                    bytes.append(92)
                    bytes.append(UInt8(ascii: "n"))
                case 0..<0x20:
                    let hex: StaticString = "0123456789abcdef"
                    bytes.append(92)
                    bytes.append(UInt8(ascii: "u"))
                    bytes.append(48)
                    bytes.append(48)
                    hex.withUTF8Buffer { digits in
                        bytes.append(digits[Int(unit >> 4)])
                        bytes.append(digits[Int(unit & 15)])
                    }
                default:
                    bytes.append(unit)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A finite number in Swift's shortest round-trip form (valid JSON); non-finite becomes null.
    public mutating func number(_ value: Double) {
        separate()
        bytes.appendShortest(value)
        needsComma = true
    }

    /// A number rounded to `decimals` places (0…9), trailing zeros dropped: what frames send
    /// (docs/PROTOCOL.md, "Delta frames": the precision of each quantity, and why). Written
    /// from an integer, without `String`; non-finite becomes null.
    public mutating func fixed(_ value: Double, _ decimals: Int) {
        separate()
        bytes.appendFixed(value, decimals: decimals)
        needsComma = true
    }

    /// `[a, b]` at fixed precision.
    public mutating func fixedPair(_ a: Double, _ b: Double, _ decimals: Int) {
        beginArray()
        fixed(a, decimals)
        fixed(b, decimals)
        endArray()
    }

    public mutating func integer(_ value: Int) {
        separate()
        bytes.appendInteger(Int64(value))
        needsComma = true
    }

    /// Where the next byte goes (the frame encoder records where each value lies).
    var position: Int { bytes.count }

    /// The bytes written at `range` (valid until the next write).
    func written(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: bytes.base + range.lowerBound, count: range.count)
    }

    /// Starts a value that stands alone — no comma before it — and returns where it starts
    /// (`FrameSnapshot` writes each property's value on its own and copies it into frames).
    mutating func beginPart() -> Int {
        needsComma = false
        return bytes.count
    }

    public mutating func bool(_ value: Bool) {
        separate()
        appendLiteral(value ? "true" : "false")
        needsComma = true
    }

    public mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    public mutating func null() {
        separate()
        appendLiteral("null")
        needsComma = true
    }

    public mutating func numbers(_ values: [Double]) {
        beginArray()
        for value in values { number(value) }
        endArray()
    }

    /// `[a, b]` without building an array first (points and sizes, several per layer).
    public mutating func pair(_ a: Double, _ b: Double) {
        beginArray()
        number(a)
        number(b)
        endArray()
    }

    /// Bytes already encoded (`EncodedMessage.appending`); the next value is separated.
    fileprivate mutating func appendRaw(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
        needsComma = true
    }

    private mutating func appendLiteral(_ literal: StaticString) {
        bytes.append(literal)
    }
}

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
        precondition(payloadCount >= 2 && bytes.base.load(fromByteOffset: bytes.count - 1, as: UInt8.self) == UInt8(ascii: "}"))
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

/// A growable byte buffer without `Array`'s per-append uniqueness and bounds bookkeeping: the
/// frame encoder appends a few hundred times per frame, thousands of frames a second.
final class ByteBuffer {
    // Accessed only from the thread encoding the message, hundreds of times per frame: the
    // runtime's exclusivity bookkeeping would cost more than the appends themselves.
    @exclusivity(unchecked) private(set) var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private(set) var capacity: Int
    @exclusivity(unchecked) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        // Not zeroed (a memset of the whole capacity per frame): only bytes below `count` are
        // ever read, and each was written (`reserveHeadroom` zeroes the header region).
        // Byte alignment: a larger one goes through posix_memalign, slower than malloc (profile).
        base = .allocate(byteCount: self.capacity, alignment: 1)
    }

    /// Starts an empty buffer with `headroom` zero bytes, the WebSocket header's room.
    func reserveHeadroom(_ headroom: Int) {
        precondition(count == 0)
        reserve(headroom)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: headroom)
        count = headroom
    }

    deinit { base.deallocate() }

    func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var next = capacity * 2
        while next < count + extra { next *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: next, alignment: 1)
        grown.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = grown
        capacity = next
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        if bytes.count <= 16 {
            // Keys, digits, short parts: a loop beats a call into libc's memmove.
            for offset in 0..<bytes.count {
                base.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: count + offset, as: UInt8.self)
            }
        } else {
            (base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: UnsafeRawBufferPointer(bytes))
    }
}

/// Numbers, written in place (no `String` but for the shortest form's rare fallbacks).
extension ByteBuffer {
    func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Decimal digits of a whole number.
    func appendInteger(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumDigits: 1)
    }

    /// `value`'s digits, left-padded with zeros to `minimumDigits` (≤ 20), written in place.
    private func appendDigits(_ value: UInt64, minimumDigits: Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        digits = max(digits, minimumDigits)
        reserve(digits)
        var magnitude = value
        var offset = count + digits
        while offset > count {
            offset -= 1
            base.storeBytes(of: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10), toByteOffset: offset, as: UInt8.self)
            magnitude /= 10
        }
        count += digits
    }

    /// Swift's shortest round-trip form; whole numbers below 1e15 as integers; non-finite: null.
    func appendShortest(_ value: Double) {
        if !value.isFinite {
            append("null")
        } else if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else {
            var text = value.description
            text.withUTF8 { append(contentsOf: $0) }
        }
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// `value` rounded to `decimals` places (0…9), trailing zeros dropped, `-0` written `0`.
    /// Past 2⁵³ after scaling (where a Double stops holding every integer) the shortest form.
    func appendFixed(_ value: Double, decimals: Int) {
        guard value.isFinite else { return append("null") }
        let scaled = (value * Self.powersOfTen[decimals]).rounded()
        guard abs(scaled) < 9_007_199_254_740_992 else { return appendShortest(value) }
        let units = Int64(scaled)
        if units == 0 { return append(UInt8(ascii: "0")) }
        if units < 0 { append(UInt8(ascii: "-")) }
        let divisor = UInt64(Self.powersOfTen[decimals])
        appendDigits(units.magnitude / divisor, minimumDigits: 1)
        var fraction = units.magnitude % divisor
        guard fraction != 0 else { return }
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        append(UInt8(ascii: "."))
        appendDigits(fraction, minimumDigits: digits)
    }
}
