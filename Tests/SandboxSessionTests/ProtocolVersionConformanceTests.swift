import Testing
import TransitionCore

@testable import SandboxSession

/// The same conversations in protocol 1 and 2 (docs/PROTOCOL.md, "Versions"): every message but
/// frames is byte for byte the same (`welcome` but its `protocol`); every protocol 1 frame is
/// whole, with `t` equal to `sent`; and every protocol 2 frame, assembled, equals the protocol 1
/// frame of the same state without `t`. Over plain kinds, the property animator, a scene with a
/// rotation, and a simulated network.
@Suite("Protocol versions: conformance") struct ProtocolVersionConformanceTests {
    /// One conversation: the client messages, each with its arrival time (s), ticks run between.
    struct Conversation: CustomTestStringConvertible {
        let name: String
        let messages: [(text: String, at: Double)]
        var network = NetworkConditions.loopback
        var testDescription: String { name }
    }

    static func pointer(_ phase: String, x: Double, y: Double, seq: Int, at time: Double) -> (String, Double) {
        (#"{"type":"pointer","phase":"\#(phase)","x":\#(x),"y":\#(y),"t":\#(time * 1000),"seq":\#(seq)}"#, time)
    }

    /// A drag of `steps` moves by `dx`/`dy` each 16 ms from (x, y), then up; starting at `start` s.
    static func drag(
        from x: Double, _ y: Double, dx: Double, dy: Double = 0, steps: Int = 12, seq: Int, start: Double
    ) -> [(String, Double)] {
        var out = [pointer("down", x: x, y: y, seq: seq, at: start)]
        for step in 1...steps {
            let phase = step == steps ? "up" : "move"
            let time = start + Double(step) * 0.016
            out.append(pointer(phase, x: x + dx * Double(step), y: y + dy * Double(step), seq: seq + step, at: time))
        }
        return out
    }

    static let conversations: [Conversation] = {
        var all: [Conversation] = []
        for kind in ["pop", "reveal", "partial-curl", "flip-horizontal", "push"] {
            all.append(
                Conversation(
                    name: kind,
                    messages: [(#"{"type":"configure","transition":"\#(kind)"}"#, 0.1)]
                        + drag(from: 60, 400, dx: 14, seq: 1, start: 0.2)
                        + drag(from: 200, 400, dx: -6, seq: 20, start: 3)
                        + [(#"{"type":"play","id":"p-1"}"#, 6), (#"{"type":"ping","seq":1,"t":5}"#, 6.1)]))
        }
        all.append(
            Conversation(
                name: "property animator",
                messages: [(#"{"type":"configure","driver":"property-animator","transition":"fade"}"#, 0.1)]
                    + drag(from: 60, 400, dx: 18, seq: 1, start: 0.2)
                    + drag(from: 60, 400, dx: 3, steps: 4, seq: 20, start: 0.35)))
        let scene =
            #"{"type":"scene","interruptible":true,"root":{"id":"nav","kind":"navigation","stack":[{"id":"list"}]}}"#
        all.append(
            Conversation(
                name: "scene",
                messages: [
                    (scene, 0.1),
                    (#"{"type":"present","controller":{"id":"sheet","presentationStyle":"pageSheet"}}"#, 0.2),
                ]
                    + drag(from: 195, 300, dx: 0, dy: 30, seq: 1, start: 1.5)
                    + [(#"{"type":"device","orientation":"landscapeLeft"}"#, 4)]
                    + [(#"{"type":"push","controller":{"id":"detail"},"interactive":true}"#, 6)]
                    + drag(from: 300, 200, dx: -20, seq: 20, start: 6.1)))
        var network = Conversation(
            name: "network lab",
            messages: [(#"{"type":"configure","transition":"cover-vertical"}"#, 0.1)]
                + drag(from: 60, 700, dx: 0, dy: -40, steps: 16, seq: 1, start: 0.2)
                + drag(from: 60, 400, dx: 0, dy: 8, seq: 30, start: 3))
        network.network = NetworkConditions(delayMs: 80, jitterMs: 40, seed: 3)
        all.append(network)
        return all
    }()

    /// What the client receives in `version`, in order.
    static func run(_ conversation: Conversation, in version: ProtocolVersion) -> [String] {
        var session = VirtualSession(network: conversation.network, version: version)
        var out = session.connect(at: 0)
        for (text, time) in conversation.messages {
            while let next = session.nextTick, next <= time { out += session.tick() }
            out += session.receive(text, at: time)
        }
        var ticks = 0
        while session.nextTick != nil, ticks < 100_000 {
            out += session.tick()
            ticks += 1
        }
        return out
    }

    static func json(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    static func without(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var fields) = value else { return value }
        fields[key] = nil
        return .object(fields)
    }

    @Test(arguments: conversations) func assembledV2FramesEqualV1Frames(_ conversation: Conversation) {
        let v1 = Self.run(conversation, in: .v1)
        let v2 = Self.run(conversation, in: .v2)
        #expect(v1.count == v2.count)
        var assembler = FrameAssembler()
        var frames = 0, deltas = 0
        for (old, new) in zip(v1, v2) {
            let whole = Self.json(old), message = Self.json(new)
            guard message["type"] == .string("frame") else {
                if message["type"] == .string("welcome") {
                    #expect(Self.without("protocol", whole) == Self.without("protocol", message))
                    assembler.reset()
                } else {
                    #expect(old == new)
                    if message["type"] == .string("joined") { assembler.reset() }
                }
                continue
            }
            frames += 1
            if message["base"] != nil { deltas += 1 }
            #expect(whole["base"] == nil)
            #expect(whole["t"] != nil && whole["t"] == whole["sent"])
            #expect(assembler.apply(message) == Self.without("t", whole))
        }
        #expect(assembler.dropped == 0)
        // The conversation exercised deltas at all (else the comparison proves little).
        #expect(frames > 20 && deltas > frames / 2)
    }

    /// Protocol 1's frame is protocol 2's full frame with `"t":<sent>` right after `n`, as
    /// protocol 1 wrote it before delta frames.
    @Test func timedFrameInsertsTAfterN() {
        let v1 = Self.run(Self.conversations[0], in: .v1)
        let frames = v1.filter { $0.hasPrefix(#"{"type":"frame""#) }
        #expect(!frames.isEmpty)
        for text in frames {
            let sent = Self.json(text)["sent"]!.number!
            let n = Int(Self.json(text)["n"]!.number!)
            #expect(text.hasPrefix(#"{"type":"frame","n":\#(n),"t":"#))
            #expect(Double(text.split(separator: ",")[2].dropFirst(4)) == sent)
        }
    }
}
