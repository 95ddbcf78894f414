import Glibc
import Logging

/// `sandbox serve`'s default log format (`LineLogHandler`), one line per event:
/// `2026-05-01T12:00:00.123Z info sandbox: connection closed bytes_in=45 peer=127.0.0.1 …`
/// (the message, then the metadata as `key=value`, keys sorted).
///
/// `LineLogHandler` is written here instead of using swift-log's `StreamLogHandler` for two
/// reasons: `StreamLogHandler` writes with a blocking `fwrite` on the logging thread — a service
/// thread — so a reader of stderr that stops stalls the server (lines here go through
/// `LogWriter`'s bounded queue instead), and it prints metadata raw, so a Host header carrying
/// terminal escapes, NUL or `" why=fake status=200 x="` reached the terminal or forged fields.
/// Here every string goes through `LogText`: control, format and separator characters as
/// `U+XXXX`, and a value with whitespace, `"` or `=` in double quotes
/// (`TextLogHandlerTests.clientTextIsEscapedAndQuoted`).
enum TextLogLine {
    /// One line, "\n" included.
    static func line(time: timespec, level: Logger.Level, label: String, message: String, fields: Logger.Metadata)
        -> [UInt8]
    {
        var text = JSONLogLine.timestamp(time) + " " + level.rawValue + " " + LogText.visible(label) + ": "
        // The message is ours, but lws' lines may quote a client: shown, and quoted if it could
        // pass for fields.
        let shown = LogText.visible(message)
        text += shown.contains("=") || shown.contains("\"") ? LogText.textValue(shown) : shown
        for key in fields.keys.sorted() {
            text += " " + LogText.visible(key).replacing(" ", with: "_").replacing("=", with: "_") + "="
            text += LogText.textValue(Self.plain(fields[key]!))
        }
        text += "\n"
        return Array(text.utf8)
    }

    static func plain(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .dictionary(let dictionary):
            "[" + dictionary.keys.sorted().map { "\($0): \(plain(dictionary[$0]!))" }.joined(separator: ", ") + "]"
        case .array(let values): "[" + values.map(plain).joined(separator: ", ") + "]"
        }
    }
}
