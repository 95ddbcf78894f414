import Glibc
import Logging

/// One log line as a JSON object (`sandbox serve --log-format json`, `LineLogHandler`):
/// `{"ts":"2026-05-01T12:00:00.123Z","level":"info","label":"sandbox","message":"…",…metadata}`.
///
/// Written here because the package mirror has no JSON handler for swift-log (it holds swift-log
/// itself, whose only stream handler writes text, and swift-otel, whose logs go to an OTLP
/// collector, not to a stream). Metadata keys become top-level fields (a key named like one of
/// the four fixed ones is prefixed with `_`); integers and floating-point numbers stay numbers,
/// everything else is a string, dictionaries and arrays nest.
///
/// Every string goes through `LogText.visible` (control, format and separator characters as
/// `U+XXXX`), then JSON's own escaping.
enum JSONLogLine {
    /// One line, "\n" included.
    static func line(time: timespec, level: Logger.Level, label: String, message: String, fields: Logger.Metadata)
        -> [UInt8]
    {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line.append(contentsOf: #"{"ts":""#.utf8)
        line.append(contentsOf: Self.timestamp(time).utf8)
        line.append(contentsOf: #"","level":"#.utf8)
        Self.appendString(level.rawValue, to: &line)
        line.append(contentsOf: #","label":"#.utf8)
        Self.appendString(label, to: &line)
        line.append(contentsOf: #","message":"#.utf8)
        Self.appendString(message, to: &line)
        for key in fields.keys.sorted() {
            line.append(UInt8(ascii: ","))
            Self.appendString(Self.fixedKeys.contains(key) ? "_" + key : key, to: &line)
            line.append(UInt8(ascii: ":"))
            Self.append(fields[key]!, to: &line)
        }
        line.append(contentsOf: "}\n".utf8)
        return line
    }

    static let fixedKeys: Set<String> = ["ts", "level", "label", "message"]

    /// RFC 3339 in UTC with milliseconds: `2026-05-01T12:00:00.123Z`.
    static func timestamp(_ time: timespec) -> String {
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = Int(time.tv_nsec / 1_000_000)
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }

    static func append(_ value: Logger.Metadata.Value, to line: inout [UInt8]) {
        switch value {
        case .string(let text):
            appendString(text, to: &line)
        case .stringConvertible(let convertible):
            // Numbers stay numbers (a log pipeline can sum durations and bytes); a non-finite
            // Double has no JSON number, so it becomes a string.
            switch convertible {
            case let number as any BinaryInteger: line.append(contentsOf: "\(number)".utf8)
            case let number as Double where number.isFinite: line.append(contentsOf: "\(number)".utf8)
            case let flag as Bool: line.append(contentsOf: (flag ? "true" : "false").utf8)
            default: appendString(convertible.description, to: &line)
            }
        case .dictionary(let dictionary):
            line.append(UInt8(ascii: "{"))
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                appendString(key, to: &line)
                line.append(UInt8(ascii: ":"))
                append(dictionary[key]!, to: &line)
            }
            line.append(UInt8(ascii: "}"))
        case .array(let values):
            line.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                append(element, to: &line)
            }
            line.append(UInt8(ascii: "]"))
        }
    }

    /// A JSON string: control, format and separator characters as `U+XXXX` (`LogText.visible`:
    /// no terminal escape, NUL, U+202E or U+2028 reaches a log viewer), then quotes and
    /// backslashes escaped, so a value that came from a client (a Host header, an Origin) can
    /// never break the line or forge a field.
    static func appendString(_ text: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        for byte in LogText.visible(text).utf8 {
            switch byte {
            case UInt8(ascii: "\""): line.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): line.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): line.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): line.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): line.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                line.append(contentsOf: #"\u00"#.utf8)
                line.append(hex[Int(byte >> 4)])
                line.append(hex[Int(byte & 0xF)])
            default: line.append(byte)
            }
        }
        line.append(UInt8(ascii: "\""))
    }
}
