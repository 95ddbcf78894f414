import Testing

@testable import SandboxSession

/// What the server's logs and metrics ask the hub: a message's type, a connection's role.
@Suite("SessionHub, as logs and metrics see it") struct SessionHubObservingTests {
    let driver = ConnectionID(number: 1)
    let viewer = ConnectionID(number: 2)

    func receive(_ hub: inout SessionHub, _ text: String, from id: ConnectionID) -> ClientMessageType? {
        var actions: [SessionAction] = []
        return hub.receive(Array(text.utf8), from: id, at: 1, into: &actions)
    }

    @Test func receiveReturnsTheTypeOfEveryMessageThatParsed() {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        #expect(receive(&hub, #"{"type":"ping","seq":1,"t":5}"#, from: driver) == .ping)
        #expect(receive(&hub, #"{"type":"play"}"#, from: driver) == .play)
        // Parsed, then refused by the session: the type is still known.
        #expect(receive(&hub, #"{"type":"present","controller":{"id":"a"}}"#, from: driver) == .present)
        #expect(receive(&hub, #"{"type":"device","orientation":"landscapeLeft"}"#, from: driver) == .device)
        #expect(receive(&hub, #"{"type":"attempt-rotation"}"#, from: driver) == .attemptRotation)
        // Did not parse: nil, whatever it claimed to be.
        #expect(receive(&hub, #"{"type":"ping"}"#, from: driver) == nil)
        #expect(receive(&hub, #"{"type":"fly"}"#, from: driver) == nil)
        #expect(receive(&hub, "not json", from: driver) == nil)
        // An unknown connection: nil, nothing happens.
        #expect(receive(&hub, #"{"type":"ping","seq":1,"t":5}"#, from: ConnectionID(number: 99)) == nil)
    }

    @Test func rolesFollowJoinsAndEnds() {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        hub.connect(viewer, session: "v", into: &actions)
        #expect(hub.role(of: driver) == .driver && hub.role(of: viewer) == .driver)
        _ = receive(&hub, #"{"type":"join","session":"s"}"#, from: viewer)
        #expect(hub.role(of: viewer) == .viewer)
        hub.disconnect(driver, into: &actions)
        #expect(hub.role(of: viewer) == .idle && hub.role(of: driver) == nil)
    }
}
