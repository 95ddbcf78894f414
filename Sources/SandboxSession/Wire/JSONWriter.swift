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

    /// Writes into `buffer` from its start: what it held is dropped, its storage kept (a frame's
    /// parts are encoded into the same buffer state after state: `FrameRecyclingTests`).
    init(reusing buffer: ByteBuffer, headroom: Int) {
        self.headroom = headroom
        buffer.count = 0
        bytes = buffer
        bytes.reserveHeadroom(headroom)
    }

    /// The finished message; the writer is used up.
    public consuming func finish() -> EncodedMessage {
        EncodedMessage(bytes: bytes, headroom: headroom)
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = false
    }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")) }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    @inline(__always)
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")) }
    @inline(__always)
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    @inline(__always)
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

    @inline(__always)
    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// `value` between quotes, escaped.
    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // The common case (ids, names, a frame's enum values): nothing to escape, one copy, read
        // in place — copying the string to a `var` for `withUTF8` cost a retain and a release of
        // it and of the buffer per string, 10 a frame (callgrind, docs/PERFORMANCE.md "Frame cost").
        let buffer = bytes
        let copied = value.utf8.withContiguousStorageIfAvailable { units in
            guard !units.contains(where: Self.needsEscape) else { return false }
            buffer.append(contentsOf: units)
            return true
        }
        if copied != true { appendEscaped(value) }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ unit: UInt8) -> Bool {
        unit < 0x20 || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\")
    }

    /// `value`'s UTF-8, escaped where JSON needs it.
    private mutating func appendEscaped(_ value: String) {
        var value = value
        value.withUTF8 { units in
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
    @inline(__always)
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
    @inline(__always)
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
    /// A string already quoted (`QuotedCases`), as the next value.
    @inline(__always)
    mutating func appendQuoted(_ quoted: UnsafeRawBufferPointer) {
        separate()
        bytes.append(contentsOf: quoted)
        needsComma = true
    }

    /// A literal value written as it is (the caller knows it is valid JSON).
    mutating func appendRaw(_ literal: StaticString) {
        separate()
        bytes.append(literal)
        needsComma = true
    }

    mutating func appendRaw(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
        needsComma = true
    }

    private mutating func appendLiteral(_ literal: StaticString) {
        bytes.append(literal)
    }
}
