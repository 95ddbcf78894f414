import Foundation

/// A strict RFC 8259 parser into `JSONValue`, by hand because it is the input hot path:
/// Foundation's `JSONDecoder` takes about 45 µs for a 100-byte pointer message here (release
/// build), ten times the server's whole time budget, and `JSONSerialization` cannot tell `true`
/// from `1` on Linux. No faster JSON package is available to this project. This one takes a few
/// microseconds; `JSONParserTests` checks it against `JSONDecoder` on valid and invalid inputs.
///
/// Refused: anything outside the grammar (trailing commas, single quotes, comments, leading
/// zeros, `NaN`/`Infinity`, control characters in strings, lone surrogates, invalid UTF-8),
/// numbers beyond a double, a name repeated in one object, nesting deeper than 64, and
/// trailing bytes after the value.
struct JSONParser {
    /// `offset`: the byte the parser stood on when it gave up (the pan tools turn it into a line
    /// and column; `JSONParserTests.aFailureSaysWhere`).
    struct Failure: Error, Equatable {
        var offset = 0
    }

    static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    static func parse(_ input: [UInt8]) throws(Failure) -> JSONValue {
        try input.withUnsafeBufferPointer { buffer throws(Failure) -> JSONValue in
            var parser = JSONParser(bytes: buffer)
            do throws(Failure) {
                parser.skipSpace()
                let value = try parser.value()
                parser.skipSpace()
                guard parser.index == buffer.count else { throw Failure() }
                return value
            } catch {
                throw Failure(offset: min(parser.index, buffer.count))
            }
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Failure() }
        let matches = literal.withUTF8Buffer { word in (0..<count).allSatisfy { bytes[index + $0] == word[$0] } }
        guard matches else { throw Failure() }
        index += count
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let byte = current else { throw Failure() }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw Failure()
        }
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw Failure() }
        index += 1
        skipSpace()
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nest()
        var object: [String: JSONValue] = [:]
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw Failure() }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw Failure() }
            index += 1
            skipSpace()
            // A repeated name is ambiguous (two `seq`s?): refused rather than resolved silently.
            guard object.updateValue(try value(), forKey: key) == nil else { throw Failure() }
            skipSpace()
            guard let separator = current else { throw Failure() }
            index += 1
            if separator == UInt8(ascii: "}") { break }
            guard separator == UInt8(ascii: ",") else { throw Failure() }
            skipSpace()
        }
        depth -= 1
        return .object(object)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nest()
        var items: [JSONValue] = []
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipSpace()
            guard let separator = current else { throw Failure() }
            index += 1
            if separator == UInt8(ascii: "]") { break }
            guard separator == UInt8(ascii: ",") else { throw Failure() }
            skipSpace()
        }
        depth -= 1
        return .array(items)
    }

    /// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, converted by strtod; beyond a double is refused.
    private mutating func number() throws(Failure) -> Double {
        guard let (value, end) = Self.number(in: bytes, at: index) else { throw Failure() }
        index = end
        return value
    }

    /// The number token starting at `start` and the index after it, or nil if the bytes there
    /// are not one or its value is beyond a double. Shared with `PointerFastPath`, so that both
    /// read every number the same way.
    static func number(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (Double, Int)? {
        // Plain index arithmetic, no local function capturing `index`: a captured var is checked
        // for exclusive access at run time on every read (callgrind, a pointer message's numbers).
        var index = start
        if next(in: bytes, at: index, is: UInt8(ascii: "-")) { index += 1 }
        if next(in: bytes, at: index, is: UInt8(ascii: "0")) {
            index += 1
        } else {
            let end = digitsEnd(in: bytes, from: index)
            guard end > index else { return nil }
            index = end
        }
        if next(in: bytes, at: index, is: UInt8(ascii: ".")) {
            let end = digitsEnd(in: bytes, from: index + 1)
            guard end > index + 1 else { return nil }
            index = end
        }
        if next(in: bytes, at: index, is: UInt8(ascii: "e")) || next(in: bytes, at: index, is: UInt8(ascii: "E")) {
            index += 1
            if next(in: bytes, at: index, is: UInt8(ascii: "+")) || next(in: bytes, at: index, is: UInt8(ascii: "-")) {
                index += 1
            }
            let end = digitsEnd(in: bytes, from: index)
            guard end > index else { return nil }
            index = end
        }
        // A number token is at most a few hundred bytes in any sane message; copy it to C.
        let length = index - start
        guard length < 512 else { return nil }
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text -> Double in
            for i in 0..<length { text[i] = CChar(bitPattern: bytes[start + i]) }
            text[length] = 0
            return strtod(text.baseAddress!, nil)
        }
        guard value.isFinite else { return nil }
        return (value, index)
    }

    private static func next(in bytes: UnsafeBufferPointer<UInt8>, at index: Int, is byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    /// Where the run of ASCII digits starting at `index` ends.
    private static func digitsEnd(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var end = index
        while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
        return end
    }

    private mutating func string() throws(Failure) -> String {
        index += 1  // the opening quote
        let start = index
        // Fast path: no escapes.
        while let c = current, c != UInt8(ascii: "\""), c != UInt8(ascii: "\\") {
            guard c >= 0x20 else { throw Failure() }
            index += 1
        }
        guard let stop = current else { throw Failure() }
        if stop == UInt8(ascii: "\"") {
            guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            else {
                throw Failure()
            }
            index += 1
            return text
        }
        var out = Array(bytes[start..<index])
        while true {
            guard let c = current else { throw Failure() }
            index += 1
            switch c {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw Failure() }
                return text
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw Failure() }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): appendScalar(try unicodeEscape(), to: &out)
                default: throw Failure()
                }
            case 0..<0x20:
                throw Failure()
            default:
                out.append(c)
            }
        }
    }

    /// \uXXXX (the backslash and u already read), joining a surrogate pair.
    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800...0xDBFF).contains(high) {
            try expect("\\u")
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw Failure() }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw Failure() }  // a lone low surrogate
        return scalar
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Failure() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw Failure()
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func appendScalar(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(contentsOf: String(Character(scalar)).utf8)
    }
}
