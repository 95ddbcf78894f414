/// Text that came from a client (a Host, an Origin, a line of lws about a request), made safe for
/// a log line in either format (`--log-format text|json`): the one escaper both handlers use.
///
/// Every control character (C0, DEL, C1), Unicode format character (Cf: U+202E right-to-left
/// override, zero-width joiners, U+FEFF…) and the line and paragraph separators U+2028/U+2029 are
/// written as `U+XXXX`, like `WireError.visible`: no terminal escape (ESC [2J, an OSC title), no
/// NUL or CR, no reordering of the text around it ever reaches the reader's terminal or log
/// viewer. The text format also quotes a value that could pass for several fields.
public enum LogText {
    /// `text` with every control, format and line/paragraph-separator scalar as `U+XXXX`.
    public static func visible(_ text: String) -> String {
        // Fast path: printable ASCII, what almost every line holds.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Control (Cc: C0, DEL, C1), format (Cf), U+2028 and U+2029.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0x80 { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// A value for the text format (`key=value`): `visible`, then in double quotes (with `"` and
    /// `\` escaped) when it is empty or holds whitespace, `"` or `=` — so a Host such as
    /// `a" why=fake status=200 x="` stays one value and cannot forge fields.
    public static func textValue(_ text: String) -> String {
        let shown = visible(text)
        let needsQuotes =
            shown.isEmpty
            || shown.unicodeScalars.contains {
                $0 == "\"" || $0 == "=" || $0.properties.isWhitespace
            }
        guard needsQuotes else { return shown }
        var out = "\""
        for scalar in shown.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(scalar)
        }
        return out + "\""
    }
}
