import Foundation
import Logging
import Synchronization
import Testing

@testable import SandboxWebSockets

/// `--log-format text` (the default): one line per event, client text escaped and quoted so it
/// can neither reach the terminal as escapes nor forge `key=value` fields.
@Suite("TextLogHandler") struct TextLogHandlerTests {
    static func line(_ message: String, _ metadata: Logger.Metadata) -> String {
        let lines = JSONLogHandlerTests.Lines()
        let logger = Logger(label: "sandbox") { label in
            var handler = LineLogHandler(
                .text, label: label, now: { timespec(tv_sec: 1_777_636_800, tv_nsec: 45_000_000) }
            ) { bytes in
                lines.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
            }
            handler.logLevel = .debug
            return handler
        }
        logger.info("\(message)", metadata: metadata)
        return lines.withLock { $0.joined() }
    }

    @Test func theFormat() {
        #expect(
            Self.line(
                "connection closed", ["peer": "127.0.0.1", "close_code": .stringConvertible(1000), "why": "two words"])
                == "2026-05-01T12:00:00.045Z info sandbox: connection closed close_code=1000 peer=127.0.0.1 why=\"two words\"\n"
        )
    }

    /// inj.py's headers, as `request refused` would log them.
    @Test(arguments: [
        ("evil\u{1B}[2J\u{1B}[31mFAKE\u{1B}[0m", "host=evilU+001B[2JU+001B[31mFAKEU+001B[0m"),
        ("evil\rINJECTED 2026 info sandbox: fake", "host=\"evilU+000DINJECTED 2026 info sandbox: fake\""),
        ("ev\u{0}il", "host=evU+0000il"),
        ("http://x\u{1B}]0;pwned\u{7}\u{1B}[8m hidden", "host=\"http://xU+001B]0;pwnedU+0007U+001B[8m hidden\""),
        ("a\u{202E}gnp.exe", "host=aU+202Egnp.exe"),
        (#"a" why=fake status=200 x=""#, #"host="a\" why=fake status=200 x=\"""#),
        ("\u{FFFD}\u{FFFD}", "host=\u{FFFD}\u{FFFD}"),
    ])
    func clientTextIsEscapedAndQuoted(_ pair: (String, String)) {
        let line = Self.line("request refused", ["host": .string(pair.0), "status": .stringConvertible(403)])
        #expect(line == "2026-05-01T12:00:00.045Z info sandbox: request refused \(pair.1) status=403\n")
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(
            !line.unicodeScalars.dropLast().contains {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
            })
        // Exactly the two fields: whatever the Host holds, a parser sees host and status only.
        #expect(Self.fields(line).map(\.0) == ["host", "status"])
    }

    @Test func aMessageThatCouldPassForFieldsIsQuoted() {
        #expect(
            Self.line("libwebsockets: a=b", [:]) == "2026-05-01T12:00:00.045Z info sandbox: \"libwebsockets: a=b\"\n")
        #expect(
            Self.line("libwebsockets: bad\u{1B}[2J", [:])
                == "2026-05-01T12:00:00.045Z info sandbox: libwebsockets: badU+001B[2J\n")
    }

    /// logfmt-style fields after the message: key=value or key="…" with \" and \\ inside.
    static func fields(_ line: String) -> [(String, String)] {
        let pattern = #/ ([a-z_]+)=("(?:[^"\\]|\\.)*"|[^ "=\n]+)/#
        return line.matches(of: pattern).map { (String($0.output.1), String($0.output.2)) }
    }
}
