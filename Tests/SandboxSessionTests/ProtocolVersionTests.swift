import Testing

@testable import SandboxSession

/// Which protocol a client gets for the subprotocols it offers (docs/PROTOCOL.md, "Versions").
@Suite("Protocol versions: negotiation") struct ProtocolVersionTests {
    static let v1 = "transition-sandbox.v1", v2 = "transition-sandbox.v2"

    @Test func theNewestOfferedWinsWhateverTheOrder() {
        #expect(ProtocolVersion.negotiate(Self.v2) == .serve(.v2))
        #expect(ProtocolVersion.negotiate(Self.v1) == .serve(.v1))
        #expect(ProtocolVersion.negotiate("\(Self.v1), \(Self.v2)") == .serve(.v2))
        #expect(ProtocolVersion.negotiate("\(Self.v2),\(Self.v1)") == .serve(.v2))
        #expect(ProtocolVersion.negotiate("chat, \(Self.v1)") == .serve(.v1))
        #expect(ProtocolVersion.negotiate(" \t\(Self.v2) ") == .serve(.v2))
    }

    @Test func noOfferGetsProtocol1() {
        #expect(ProtocolVersion.negotiate(nil) == .serve(.v1))
    }

    @Test func onlyUnknownNamesAreRefused() {
        #expect(ProtocolVersion.negotiate("chat") == .unsupported)
        #expect(ProtocolVersion.negotiate("transition-sandbox.v3, transition-sandbox") == .unsupported)
        // Case matters (RFC 6455 subprotocol names are compared exactly, as lws does).
        #expect(ProtocolVersion.negotiate("Transition-Sandbox.V2") == .unsupported)
        #expect(ProtocolVersion.negotiate(", ,") == .unsupported)
        #expect(ProtocolVersion.negotiate("\(Self.v2),,\(Self.v1)") == .unsupported)
        // Not tokens (libwebsockets' tokenizer gives up on them and closes without a word).
        #expect(ProtocolVersion.negotiate(#"\#(Self.v1), "odd", \#(Self.v2)"#) == .unsupported)
        #expect(ProtocolVersion.negotiate("\(Self.v1), o;d, \(Self.v2)") == .unsupported)
        #expect(ProtocolVersion.negotiate("\(Self.v1) \(Self.v2)") == .unsupported)
        // What libwebsockets could not read: it would close the connection without a word.
        let long = String(repeating: "x", count: ProtocolVersion.maxNameBytes)
        #expect(ProtocolVersion.negotiate("\(long), \(Self.v2)") == .unsupported)
        let many = Array(repeating: "a", count: 62).joined(separator: ",")
        #expect(ProtocolVersion.negotiate("\(many),\(Self.v2)") == .unsupported)
    }

    @Test func namesRoundTrip() {
        for version in ProtocolVersion.allCases {
            #expect(ProtocolVersion(subprotocol: version.subprotocol) == version)
        }
        #expect(ProtocolVersion(subprotocol: "") == nil)
    }

    /// A copy for another thread makes the same protocol 1 frame, whether the original had made
    /// it already or not (it is made from the full frame, which the copy carries).
    @Test func aCopyForAnotherThreadMakesTheSameTimedFrame() {
        let states = FrameDeltaTests.states(
            kind: .pop, scene: false, gestures: [[12, 12, 12, 12]], unasked: [false])
        #expect(states.count > 4)
        for (index, state) in states.enumerated() {
            if index % 2 == 0 { _ = state.timed }
            #expect(state.copy().timed.text == state.timed.text)
            #expect(state.message(after: nil, in: .v1).text == state.timed.text)
            #expect(state.timed.text.contains(#","t":"#) && !state.timed.text.contains(#""base""#))
        }
    }

    @Test func welcomeTellsTheVersion() throws {
        for version in ProtocolVersion.allCases {
            var session = VirtualSession(version: version)
            let welcome = try JSONParser.parse(Array(session.connect(at: 0)[0].utf8))
            #expect(welcome["protocol"] == .number(Double(version.rawValue)))
        }
    }
}
