/// Writes JSON straight into a byte buffer that starts with libwebsockets' `LWS_PRE` headroom,
/// so a finished message goes to `lws_write` without a copy.
///
/// Hand-written rather than `JSONEncoder`: frames are the server's hot path (60 per second per
/// session, thousands of sessions) and Foundation's encoder costs tens of microseconds per frame
/// where this costs a few. Incoming messages, which are rare and untrusted, use `JSONDecoder`.
struct JSONWriter {
    private(set) var bytes: [UInt8]
    let headroom: Int
    private var needsComma = false

    init(headroom: Int, capacity: Int = 1024) {
        self.headroom = headroom
        bytes = [UInt8](repeating: 0, count: headroom)
        bytes.reserveCapacity(headroom + capacity)
    }

    mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
        bytes.withUnsafeMutableBytes(body)
    }

    /// The JSON text written so far (without the headroom).
    var text: String { String(decoding: bytes[headroom...], as: UTF8.self) }
    var payloadCount: Int { bytes.count - headroom }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = false
    }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")) }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")) }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for unit in value.utf8 {
            switch unit {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case 0x0A: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(unit >> 4)], hex[Int(unit & 15)]])
            default: bytes.append(unit)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A finite number in Swift's shortest round-trip form (valid JSON); non-finite becomes null.
    mutating func number(_ value: Double) {
        separate()
        if !value.isFinite {
            bytes.append(contentsOf: Array("null".utf8))
        } else if value == value.rounded(), abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
        needsComma = true
    }

    mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: Array((value ? "true" : "false").utf8))
        needsComma = true
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: Array("null".utf8))
        needsComma = true
    }

    mutating func numbers(_ values: [Double]) {
        beginArray()
        for value in values { number(value) }
        endArray()
    }
}
