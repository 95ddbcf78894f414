import Foundation
import Testing
import TransitionCore

@testable import SandboxSession

/// The hand-written parser against Foundation's JSONDecoder, the reference.
@Suite("JSON parser")
struct JSONParserTests {
    static func reference(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static let valid = [
        #"{"type":"pointer","phase":"move","x":212.5,"y":400,"t":15234.6,"seq":42,"pointerId":1}"#,
        #" { "a" : [ 1 , -0.5e-3 , 2E+10 , 0 , -0 ] , "b" : { } , "c" : [ ] , "d" : null , "e" : true , "f" : false } "#,
        #"["\u00e9\ud83d\ude00\n\t\"\\\/", "plain ünïcode", ""]"#,
        #"1.7976931348623157e308"#, #""text""#, #"[[[[[[[[[[1]]]]]]]]]]"#, "123", "-1", "0.25",
    ]

    static let invalid = [
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{'a':1}", "01", "1.", ".5", "-", "1e", "+1", "NaN", "Infinity",
        "-Infinity", "tru", "nul", "[1 2]", "{\"a\" 1}", "{1:2}", "\"unterminated", "\"bad \\x escape\"",
        "\"\\ud83d alone\"", "\"\\udc00 low alone\"", "1e999", "-1e999", "[1]x", "\"tab\there\"", "// c\n1",
        String(repeating: "[", count: 65) + String(repeating: "]", count: 65), #"{"seq":1,"seq":2}"#,
    ]

    /// Foundation refuses a zero with an exponent ("0e2"), which RFC 8259 allows; we follow the RFC.
    static func zeroWithExponent(_ text: String) -> Bool {
        text.wholeMatch(of: /\s*-?0[eE][+-]?[0-9]+\s*/) != nil
    }

    @Test("0e2 is a number, as RFC 8259 says (JSONDecoder refuses it)")
    func zeroExponent() throws {
        #expect(try JSONParser.parse(Array("0e2".utf8)) == .number(0))
    }

    @Test("valid documents parse exactly as JSONDecoder reads them", arguments: valid)
    func matchesReference(text: String) throws {
        let parsed = try JSONParser.parse(Array(text.utf8))
        #expect(parsed == Self.reference(text))
    }

    @Test("invalid documents are refused", arguments: invalid)
    func refused(text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    /// The byte a failure names is the first one that cannot continue a valid document.
    @Test(
        "a failure says where",
        arguments: [
            ("{\"a\": 1,}", 8), ("[1, 2", 5), ("{\"a\": tru}", 6), ("\n\n  @", 4), ("[1] x", 4),
        ])
    func aFailureSaysWhere(text: String, offset: Int) {
        #expect(throws: JSONParser.Failure(offset: offset)) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test("random mutations of valid messages: accepted exactly when JSONDecoder accepts, with the same value")
    func differential() {
        var generator = SplitMix64(seed: 0x5EED)  // repeatable
        let alphabet = Array(#"{}[]:,"\-+.eE0123456789 truefalsnl\/u"#.utf8)
        var checked = 0
        for base in Self.valid.map({ Array($0.utf8) }) {
            for _ in 0..<400 {
                let bytes = mutated(base, alphabet: alphabet, using: &generator)
                let mine = try? JSONParser.parse(bytes)
                let theirs = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
                // We refuse a little more than JSONDecoder (a repeated name); where it refuses, so
                // must we, and where both accept, they agree.
                let text = String(decoding: bytes, as: UTF8.self)
                if theirs == nil && !Self.zeroWithExponent(text) { #expect(mine == nil, "accepted [\(text)]") }
                if let mine, let theirs { #expect(mine == theirs) }
                checked += 1
            }
        }
        #expect(checked == Self.valid.count * 400)
    }
}
