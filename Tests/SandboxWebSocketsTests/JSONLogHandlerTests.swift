import Foundation
import Logging
import Synchronization
import Testing

@testable import SandboxWebSockets

/// `--log-format json`: one JSON object per line, whatever the metadata holds.
@Suite("JSONLogHandler") struct JSONLogHandlerTests {
    final class Lines: Sendable {
        private let storage = Mutex<[String]>([])
        func withLock<T>(_ body: (inout [String]) -> T) -> T { storage.withLock { body(&$0) } }
    }

    /// A handler writing into `lines`, at a fixed time (2026-05-01T12:00:00.045Z).
    static func handler(_ lines: Lines) -> LineLogHandler {
        var handler = LineLogHandler(
            .json, label: "sandbox", now: { timespec(tv_sec: 1_777_636_800, tv_nsec: 45_000_000) }
        ) { bytes in
            lines.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
        }
        handler.logLevel = .debug
        return handler
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func oneObjectPerLineWithTypedFields() throws {
        let lines = Lines()
        let logger = Logger(label: "sandbox") { _ in Self.handler(lines) }
        logger.info(
            "connection closed",
            metadata: [
                "peer": "127.0.0.1", "bytes_in": .stringConvertible(45), "duration_s": .stringConvertible(1.5),
                "nested": ["a": ["1", "2"]], "message": "clash",
            ])
        logger.trace("below the level")
        let written = lines.withLock { $0 }
        #expect(written.count == 1)
        let line = try #require(written.first)
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
        let object = try Self.object(line)
        #expect(object["ts"] as? String == "2026-05-01T12:00:00.045Z")
        #expect(object["level"] as? String == "info")
        #expect(object["label"] as? String == "sandbox")
        #expect(object["message"] as? String == "connection closed")
        #expect(object["_message"] as? String == "clash")  // a metadata key never overwrites a fixed one
        #expect(object["peer"] as? String == "127.0.0.1")
        #expect(object["bytes_in"] as? Int == 45)
        #expect(object["duration_s"] as? Double == 1.5)
        #expect((object["nested"] as? [String: [String]])?["a"] == ["1", "2"])
    }

    /// Quotes and backslashes by JSON's escaping; control, format and separator characters as
    /// `U+XXXX` (LogText), so no terminal escape or bidi override reaches a log viewer either.
    @Test(arguments: [
        ("evil\"}\n{\"level\":\"critical", "evil\"}U+000A{\"level\":\"critical"),
        ("tab\tnul\u{0}bell\u{7}del\u{7F}", "tabU+0009nulU+0000bellU+0007delU+007F"),
        ("é ✓ 🙂", "é ✓ 🙂"), ("back\\slash", "back\\slash"),
        ("a\u{202E}gnp.exe", "aU+202Egnp.exe"), ("x\u{2028}y\u{2029}z\u{85}", "xU+2028yU+2029zU+0085"),
        ("evil\u{1B}[2J\u{1B}]0;pwned\u{7}", "evilU+001B[2JU+001B]0;pwnedU+0007"),
    ])
    func clientTextNeverBreaksTheLine(_ pair: (String, String)) throws {
        let lines = Lines()
        let logger = Logger(label: "sandbox") { _ in Self.handler(lines) }
        logger.info("request refused", metadata: ["host": .string(pair.0)])
        let line = try #require(lines.withLock { $0.first })
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(
            !line.unicodeScalars.dropLast().contains {
                $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" || $0 == "\u{2028}"
            })
        let object = try Self.object(line)
        #expect(object["host"] as? String == pair.1)
        #expect(object["level"] as? String == "info")
    }

    @Test func nonFiniteNumbersBecomeStrings() throws {
        let lines = Lines()
        let logger = Logger(label: "sandbox") { _ in Self.handler(lines) }
        logger.info("x", metadata: ["a": .stringConvertible(Double.nan), "b": .stringConvertible(true)])
        let object = try Self.object(try #require(lines.withLock { $0.first }))
        #expect(object["a"] as? String == "nan")
        #expect(object["b"] as? Bool == true)
    }
}
