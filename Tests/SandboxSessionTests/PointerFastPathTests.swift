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
        #expect(fast == Self.general(bytes))
        guard case .pointer(let parsed) = try ClientMessage.parse(bytes) else { Issue.record("not a pointer"); return }
        #expect(parsed == fast)
    }

    /// Each valid or invalid, but not the fast path's: it declines, and the general path decides.
    static let declined = [
        #"{"\u0074ype":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4}"#,   // an escaped key
        #"{"type":"pointer","phase":"mov\u0065","x":1,"y":2,"t":3,"seq":4}"#,   // an escaped value
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"pointerType":null}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"pointerType":"pén"}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"seq":5}"#,  // repeated
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3,"seq":4,"z":0}"#,    // unknown
        #"{"type":"pointer","phase":"move","x":1,"y":2,"t":3}"#,                  // no seq
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
        "{}", "", "[]", #"{"type":"pointer""#,
    ]

    @Test("everything else is declined and left to the general path", arguments: declined)
    func declinedMessages(text: String) {
        #expect(PointerFastPath.parse(Array(text.utf8)) == nil)
    }

    @Test("random mutations of plain messages: whatever the fast path returns, the general parse returns too")
    func differential() {
        var generator = SplitMix64(seed: 0xFA57)  // repeatable
        let alphabet = Array(#"{}[]:,"\-+.eE0123456789 xytseqpointerIdTypmvdwnu"#.utf8)
        var taken = 0, checked = 0
        for base in Self.plain.map({ Array($0.utf8) }) {
            for _ in 0..<2_000 {
                var bytes = base
                for _ in 0...(generator.next() % 3) {
                    let position = Int(generator.next() % UInt64(bytes.count + 1))
                    switch generator.next() % 3 {
                    case 0 where position < bytes.count: bytes.remove(at: position)
                    case 1: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                    default: if position < bytes.count { bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                    }
                }
                checked += 1
                guard let fast = PointerFastPath.parse(bytes) else { continue }
                taken += 1
                #expect(fast == Self.general(bytes), "fast path differs on [\(String(decoding: bytes, as: UTF8.self))]")
            }
        }
        #expect(checked == Self.plain.count * 2_000)
        // Some mutations keep a valid pointer (a digit changed): the comparison has cases.
        #expect(taken > 100)
    }
}
