import Testing
import TransitionCore

@testable import SandboxSession

/// Request ids (docs/PROTOCOL.md, "Request ids"): echoed on the sender's replies and errors,
/// absent (byte for byte as before) without one, refused when malformed.
@Suite("RequestID") struct RequestIDTests {
    let driver = ConnectionID(number: 1)
    let viewer = ConnectionID(number: 2)

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func hub() -> SessionHub {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        return hub
    }

    /// Received, with every `.lookUp` answered as a single thread does: not found.
    func receive(
        _ hub: inout SessionHub, _ text: String, from id: ConnectionID? = nil, at now: Double = 1
    ) -> [SessionAction] {
        hub.receiveOnOneThread(Self.bytes(text), from: id ?? driver, at: now)
    }

    func text(_ message: ServerMessage) -> String {
        ServerMessages.encode(message, headroom: 0).text
    }

    @Test func aPongEchoesTheIdRightAfterItsType() throws {
        var hub = hub()
        let actions = receive(&hub, #"{"type":"ping","seq":1,"t":5,"id":"r-1"}"#, at: 2)
        let id = try #require(RequestID("r-1"))
        #expect(actions == [.send(driver, .pong(seq: 1, t: 5, serverTime: 2000, id: id))])
        #expect(
            text(.pong(seq: 1, t: 5, serverTime: 2000, id: id))
                == #"{"type":"pong","id":"r-1","seq":1,"t":5,"serverTime":2000}"#)
    }

    @Test func withoutAnIdTheRepliesAreTheSameBytesAsBefore() {
        var hub = hub()
        let actions = receive(&hub, #"{"type":"ping","seq":1,"t":5}"#, at: 2)
        #expect(actions == [.send(driver, .pong(seq: 1, t: 5, serverTime: 2000))])
        #expect(text(.pong(seq: 1, t: 5, serverTime: 2000)) == #"{"type":"pong","seq":1,"t":5,"serverTime":2000}"#)
        #expect(text(.error(WireError(.busy, "b"))) == #"{"type":"error","code":"busy","message":"b"}"#)
    }

    @Test func configuredCarriesTheIdToTheSenderOnlyAndTheLinkToo() throws {
        var hub = hub()
        var ignored: [SessionAction] = []
        hub.connect(viewer, session: "v", into: &ignored)
        _ = receive(&hub, #"{"type":"join","session":"s"}"#, from: viewer)
        let id = try #require(RequestID("c.7"))
        let actions = receive(&hub, #"{"type":"configure","fps":30,"network":{"delayMs":5},"id":"c.7"}"#)
        let settings = try #require(hub.core(of: "s")?.settings)
        let link = NetworkConditions(delayMs: 5)
        #expect(
            actions.prefix(4) == [
                .setLink(driver, link), .send(driver, .link(link, id: id)),
                .send(driver, .configured(session: "s", settings: settings, joined: false, id: id)),
                .send(viewer, .configured(session: "s", settings: settings, joined: false)),
            ])
    }

    @Test func joinedAndItsSceneStateEchoTheJoinersId() throws {
        var hub = hub()
        _ = receive(&hub, #"{"type":"scene","root":{"id":"a","title":"A"}}"#)
        var ignored: [SessionAction] = []
        hub.connect(viewer, session: "v", into: &ignored)
        let id = try #require(RequestID("J"))
        let actions = receive(&hub, #"{"type":"join","session":"s","id":"J"}"#, from: viewer)
        let report = try #require(hub.core(of: "s")?.scene?.report)
        #expect(
            actions.suffix(3) == [
                .send(viewer, .configured(session: "s", settings: SessionSettings(), joined: true, id: id)),
                .send(viewer, .sceneState(report, id: id)), .frameDue(viewer),
            ])
    }

    @Test(arguments: [
        #"{"type":"fly","id":"e1"}"#, #"{"type":"ping","seq":"x","id":"e1"}"#,
        #"{"type":"join","session":"x","id":"e1"}"#, #"{"type":"play","wings":1,"id":"e1"}"#,
        #"{"type":"pointer","phase":"up","x":0,"y":0,"t":0,"seq":1,"id":"e1"}"#,
    ])
    func anErrorEchoesTheIdOfTheMessageThatCausedIt(_ message: String) throws {
        var hub = hub()
        let actions = receive(&hub, message)
        guard actions.count == 1, case .send(driver, .error(let error)) = actions[0] else {
            Issue.record("not one error: \(actions)")
            return
        }
        #expect(error.requestID == RequestID("e1"))
        #expect(text(.error(error)).hasPrefix(#"{"type":"error","id":"e1","code":"#))
    }

    @Test(arguments: [
        #""""#, "1", "null", #""has space""#, #""ü""#, "\"\(String(repeating: "a", count: 65))\"", #""a\"b""#,
    ])
    func aBadIdIsRefusedWithAnErrorThatCarriesNoId(_ id: String) {
        var hub = hub()
        let actions = receive(&hub, #"{"type":"ping","seq":1,"t":5,"id":"# + id + "}")
        guard actions.count == 1, case .send(driver, .error(let error)) = actions[0] else {
            Issue.record("not one error: \(actions)")
            return
        }
        #expect(error.code == "invalid-field" && error.field == "id" && error.requestID == nil)
    }

    @Test func theLongestAndEveryAllowedCharacterPass() {
        #expect(RequestID(String(repeating: "z", count: 64)) != nil)
        #expect(RequestID("AZaz09._:-") != nil)
        #expect(RequestID("") == nil && RequestID("a/b") == nil)
    }

    @Test func aPointerWithAnIdTakesTheGeneralPathAndIsApplied() throws {
        let plain = Self.bytes(#"{"type":"pointer","phase":"down","x":10,"y":400,"t":0,"seq":1}"#)
        let tagged = Self.bytes(#"{"type":"pointer","phase":"down","x":10,"y":400,"t":0,"seq":1,"id":"p1"}"#)
        #expect(PointerFastPath.parse(tagged) == nil)
        let request = try ClientRequest.parse(tagged)
        guard case .pointer(let pointer) = request.message else {
            Issue.record("not a pointer")
            return
        }
        #expect(request.id == RequestID("p1") && pointer == PointerFastPath.parse(plain))
        var withID = hub()
        var without = hub()
        var actions: [SessionAction] = []
        withID.receive(tagged, from: driver, at: 1, into: &actions)
        var plainActions: [SessionAction] = []
        without.receive(plain, from: driver, at: 1, into: &plainActions)
        #expect(actions == plainActions)
        var withIDFrames = FrameCache(for: withID)
        var withoutFrames = FrameCache(for: without)
        #expect(
            withIDFrames.frame(for: driver, in: withID, now: 1)?.full.text
                == withoutFrames.frame(for: driver, in: without, now: 1)?.full.text)
    }

    @Test func anUnknownKeyBesideAnIdIsStillRefused() {
        var hub = hub()
        let actions = receive(&hub, #"{"type":"ping","seq":1,"t":5,"id":"k","ids":1}"#)
        guard actions.count == 1, case .send(driver, .error(let error)) = actions[0] else {
            Issue.record("not one error: \(actions)")
            return
        }
        #expect(error.code == "unknown-field" && error.field == "ids" && error.requestID == RequestID("k"))
    }
}
