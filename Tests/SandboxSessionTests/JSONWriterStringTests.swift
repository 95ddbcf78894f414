import Testing

@testable import SandboxSession

/// Strings as `JSONWriter` writes them: plain ones copied as they are (read in place), the rest
/// escaped where JSON needs it, and each parses back to itself.
@Suite("JSONWriter strings") struct JSONWriterStringTests {
    @Test(arguments: [
        "from", "", "plain ünïcode 😀", "a\"b", "back\\slash", "line\nbreak", "tab\there", "bell\u{07}",
        "\u{1F}\u{00}", String(repeating: "x", count: 300), String(repeating: "\"", count: 40),
    ])
    func roundTrips(_ value: String) throws {
        var w = JSONWriter(headroom: 0)
        w.beginArray()
        w.string(value)
        w.endArray()
        let text = w.finish().text
        #expect(try JSONParser.parse(Array(text.utf8)) == .array([.string(value)]), "\(text)")
        let plain = !value.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        if plain { #expect(text == "[\"\(value)\"]") }
    }
}
