import Foundation
import Testing
import TransitionCore

@testable import SandboxSession

/// The pointer fast path (`PointerFastPath`) against the general parse (`ClientMessage.parseValue`):
/// whatever it returns is exactly what the general path reads, and it declines everything it
/// does not read itself.
@Suite("Pointer fast path")
struct PointerFastPathTests {
    static func general(_ bytes: [UInt8]) -> PointerMessage? {
        guard case .pointer(let message) = try? ClientMessage.parseValue(bytes) else { return nil }
        return message
    }

    /// Equal to the bit (`==` takes -0 for 0).
    static func identical(_ a: PointerMessage?, _ b: PointerMessage?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a == b && a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern
            && a.time.bitPattern == b.time.bitPattern
    }

    /// What the page, `pan` and `latency` send, and harmless variations of it.
    static let plain = [
        #"{"type":"pointer","phase":"move","x":212.5,"y":400,"t":15234.6,"seq":42}"#,
        #"{"type":"pointer","phase":"down","x":0,"y":-0,"t":0,"seq":1,"pointerId":3,"pointerType":"touch"}"#,
        #"{"seq":7,"t":1e3,"y":4E-2,"x":-12.75,"phase":"up","type":"pointer"}"#,
        " {\n\t\"type\" : \"pointer\" , \"phase\":\"cancel\",\"x\":1000000,\"y\":-1000000,\"t\":-1e13,\"seq\":-9007199254740991,\"pointerId\":-2 } \r\n",
        #"{"type":"pointer","phase":"move","x":1.5,"y":2.5,"t":10000000000000,"seq":9007199254740991,"pointerType":"mouse"}"#,
    ]

    @Test("plain messages take the fast path and read exactly as the general parse", arguments: plain)
    func plainMessages(text: String) throws {
        let bytes = Array(text.utf8)
        let fast = try #require(PointerFastPath.parse(bytes))
        #expect(Self.identical(fast, Self.general(bytes)))
        guard case .pointer(let parsed) = try ClientMessage.parse(bytes) else { Issue.record("not a pointer"); return }
        #expect(parsed == fast)
    }

    /// Each valid or invalid, but not the fast path's: it declines, and the general path decides.
    static let declined = [
        #"{"\u0074ype":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4}"#,  // an escaped key
        #"{"type":"pointer","phase":"mov\u0065","x":1,"y":2,"t":3,"seq":4}"#,  // an escaped value
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"pointerType":null}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"pointerType":"pén"}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"seq":5}"#,  // repeated
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"z":0}"#,  // unknown
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3}"#,  // no seq
        #"{"type":"pointer","phase":"hover","x":1,"y":2,"t":3,"seq":4}"#,
        #"{"type":"ping","phase":"move","x":1,"y":2,"t":3,"seq":4}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4.5}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":9007199254740992}"#,
        #"{"type":"pointer","phase":"move","x":1e400,"y":2,"t":3,"seq":4}"#,
        #"{"type":"pointer","phase":"move","x":1000000.5,"y":2,"t":3,"seq":4}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":1e14,"seq":4}"#,
        #"{"type":"pointer","phase":"move","x":"1","y":2,"t":3,"seq":4}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4}x"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,}"#,
        #"{"type":"pointer","phase":"move","x":01,"y":2,"t":3,"seq":4}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"pointerId":1.5}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"pointerType":"a"# + "\u{7f}\"}",
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"pointerType":"a"# + "\u{1}\"}",
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"pointerType":5}"#,
        "\u{a0}" + #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4}"# + "\u{c}",
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4}"# + "\u{0}",
        "{}", "", "[]", #"{"type":"pointer""#,
    ]

    @Test("everything else is declined and left to the general path", arguments: declined)
    func declinedMessages(text: String) {
        #expect(PointerFastPath.parse(Array(text.utf8)) == nil)
    }

    @Test("-0 stays -0, as the general parse reads it")
    func negativeZero() throws {
        let bytes = Array(#"{"type":"pointer","phase":"move","x":-0,"y":-0.0e5,"t":-0,"seq":-0,"pointerId":-0}"#.utf8)
        let fast = try #require(PointerFastPath.parse(bytes))
        #expect(Self.identical(fast, Self.general(bytes)))
        #expect(fast.x.sign == .minus)
    }

    @Test("a number token is at most 511 bytes, read by strtod, finite")
    func numberTokenLimit() {
        func read(_ text: String) -> (Double, Int)? {
            Array(text.utf8).withUnsafeBufferPointer { JSONParser.number(in: $0, at: 0) }
        }
        #expect(read("0." + String(repeating: "1", count: 509)) != nil)  // 511 bytes
        #expect(read("0." + String(repeating: "1", count: 510)) == nil)  // 512
        #expect(read("-0." + String(repeating: "1", count: 508)) != nil)
        #expect(read("-0." + String(repeating: "1", count: 509)) == nil)
        #expect(read("1e-400")?.0.bitPattern == 0)
        #expect(read("4.9e-324")?.0 == .leastNonzeroMagnitude)
        #expect(read("1e309") == nil)
        #expect(read("01")?.1 == 1)  // the token is "0"; the parser refuses what follows
    }

    @Test("random mutations of plain messages: whatever the fast path returns, the general parse returns too")
    func differential() {
        var generator = SplitMix64(seed: 0xFA57)  // repeatable
        // With escapes, non-ASCII, control bytes and DEL: the string guards.
        let alphabet =
            Array(#"{}[]:,"\-+.eE0123456789 xytseqpointerIdTypmvdwnu"#.utf8) + [
                0x5C, 0x75, 0x00, 0x0C, 0x7F, 0xC2, 0xA0, 0xE9,
            ]
        var taken = 0, checked = 0
        for base in Self.plain.map({ Array($0.utf8) }) {
            for _ in 0..<2_000 {
                let bytes = mutated(base, alphabet: alphabet, using: &generator)
                checked += 1
                guard let fast = PointerFastPath.parse(bytes) else { continue }
                taken += 1
                #expect(
                    Self.identical(fast, Self.general(bytes)),
                    "fast path differs on [\(String(decoding: bytes, as: UTF8.self))]")
            }
        }
        #expect(checked == Self.plain.count * 2_000)
        // Some mutations keep a valid pointer (a digit changed): the comparison has cases.
        #expect(taken > 100)
    }
}
