/// Reads single top-level numbers out of a server message by key, without parsing the message:
/// the latency and bench clients meet thousands of frames a second, and a full JSON parse of a
/// frame costs more than the round trip being measured. Sound for the sandbox's own messages,
/// whose scalar fields come before `layers` and never repeat a key.
enum FrameFields {
    /// The number after `"key":`, or nil when absent or `null`.
    static func number(_ key: StaticString, in message: UnsafeRawBufferPointer) -> Double? {
        let bytes = message.bindMemory(to: UInt8.self)
        return key.withUTF8Buffer { needle -> Double? in
            guard bytes.count > needle.count + 3 else { return nil }
            var i = 0
            let limit = bytes.count - needle.count - 3
            while i <= limit {
                if bytes[i] == UInt8(ascii: "\""), bytes[i + needle.count + 1] == UInt8(ascii: "\""),
                    bytes[i + needle.count + 2] == UInt8(ascii: ":"),
                    (0..<needle.count).allSatisfy({ bytes[i + 1 + $0] == needle[$0] })
                {
                    return parseNumber(bytes, from: i + needle.count + 3)
                }
                i += 1
            }
            return nil
        }
    }

    private static func parseNumber(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Double? {
        var end = start
        while end < bytes.count, let c = Optional(bytes[end]),
            (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
                || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || c == UInt8(ascii: "+")
        {
            end += 1
        }
        guard end > start else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
    }

    /// True when the message starts with `{"type":"NAME"` (no allocation: called per message).
    static func isType(_ name: StaticString, _ message: UnsafeRawBufferPointer) -> Bool {
        let prefix: StaticString = #"{"type":""#
        let p = prefix.utf8CodeUnitCount
        let n = name.utf8CodeUnitCount
        guard message.count > p + n else { return false }
        let head = prefix.withUTF8Buffer { bytes in (0..<p).allSatisfy { message[$0] == bytes[$0] } }
        guard head, message[p + n] == UInt8(ascii: "\"") else { return false }
        return name.withUTF8Buffer { bytes in (0..<n).allSatisfy { message[p + $0] == bytes[$0] } }
    }
}
