import Testing
import TransitionCore

@testable import SandboxSession

/// Fan-out, action by action: a session takes at most `maxViewers` viewers from every thread,
/// a join past it is refused and changes nothing, and what a driver's message makes for its
/// viewers is charged to the driver.
@Suite("SessionHub fan-out") struct SessionHubFanOutTests {
    let driver = ConnectionID(number: 1)
    let viewers = (2...5).map { ConnectionID(number: $0) }
    let remotes = (1...2).map { ConnectionID(thread: 1, number: $0) }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static let join = bytes(#"{"type":"join","session":"s"}"#)
    static let full = WireError(.tooManyViewers, "session 's' has 2 viewers, the most it takes; nothing changed")

    /// A hub of at most two viewers a session, "s" driven by `driver`, and every viewer
    /// connected (driving sessions of their own).
    func hub(maxViewers: Int = 2) -> SessionHub {
        var hub = SessionHub(maxViewers: maxViewers)
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        for (index, viewer) in viewers.enumerated() { hub.connect(viewer, session: "v\(index)", into: &actions) }
        return hub
    }

    @Test func theViewerPastTheLimitIsRefusedAndNothingChanges() {
        var hub = hub()
        for viewer in viewers.prefix(2) {
            #expect(hub.receiveOnOneThread(Self.join, from: viewer, at: 1).contains(.frameDue(viewer)))
        }
        let before = hub
        #expect(hub.receiveOnOneThread(Self.join, from: viewers[2], at: 1) == [.send(viewers[2], .error(Self.full))])
        #expect(hub == before)  // its own session "v2" goes on; nobody was told anything
        #expect(hub.session(of: viewers[2]) == "v2")
        // A viewer that leaves frees its place (a viewer cut and rejoining takes one place).
        var actions: [SessionAction] = []
        hub.disconnect(viewers[0], into: &actions)
        #expect(
            hub.receiveOnOneThread(Self.join, from: viewers[2], at: 2) == [
                .unregister(session: "v2"),
                .send(viewers[2], .configured(session: "s", settings: SessionSettings(), joined: true)),
                .frameDue(viewers[2]),
            ])
        #expect(hub.receiveOnOneThread(Self.join, from: viewers[3], at: 2) == [.send(viewers[3], .error(Self.full))])
    }

    @Test func noViewersAtAllWithALimitOfZero() {
        var hub = hub(maxViewers: 0)
        let before = hub
        let refused = hub.receiveOnOneThread(Self.join, from: viewers[0], at: 1)
        guard case .send(_, .error(let error)) = refused.first else {
            Issue.record("expected a refusal, got \(refused)")
            return
        }
        #expect(refused.count == 1 && error.code == "too-many-viewers")
        #expect(hub == before)
    }

    @Test func remoteViewersCount() {
        var hub = hub()
        var actions: [SessionAction] = []
        hub.attachViewer(remotes[0], to: "s", into: &actions)
        #expect(actions.last == .frameDue(remotes[0]))
        #expect(hub.receiveOnOneThread(Self.join, from: viewers[0], at: 1).contains(.frameDue(viewers[0])))
        // Full: another thread's viewer and this thread's are refused alike.
        let before = hub
        actions = []
        hub.attachViewer(remotes[1], to: "s", into: &actions)
        #expect(actions == [.send(remotes[1], .error(Self.full))])
        #expect(hub == before)
        #expect(ServerMessage.error(Self.full).endsWatch)  // the watch over there ends with it
        #expect(hub.receiveOnOneThread(Self.join, from: viewers[1], at: 1) == [.send(viewers[1], .error(Self.full))])
        // The remote viewer leaving frees its place.
        hub.detachViewer(remotes[0], from: "s")
        #expect(hub.receiveOnOneThread(Self.join, from: viewers[1], at: 2).contains(.frameDue(viewers[1])))
    }

    /// The viewer's side of a refusal by another thread: it asked, went on driving its own
    /// session, and is left as it was; a join it withdrew (by joining elsewhere, or closing)
    /// is withdrawn over there too.
    @Test func aRemoteRefusalChangesNothingHere() {
        var hub = hub()
        let before = hub
        var actions: [SessionAction] = []
        hub.watchElsewhere(viewers[0], session: "far", into: &actions)
        #expect(actions == [.watchElsewhere(viewers[0], session: "far")])
        hub.remoteWatchEnded(viewers[0], session: "far")  // `too-many-viewers` came back
        #expect(hub == before)
        // Asked twice: the first is withdrawn; then it closes: the second too.
        actions = []
        hub.watchElsewhere(viewers[0], session: "far", into: &actions)
        hub.watchElsewhere(viewers[0], session: "farther", into: &actions)
        hub.disconnect(viewers[0], into: &actions)
        #expect(
            actions == [
                .watchElsewhere(viewers[0], session: "far"), .stopWatchingElsewhere(viewers[0], session: "far"),
                .watchElsewhere(viewers[0], session: "farther"),
                .stopWatchingElsewhere(viewers[0], session: "farther"), .unregister(session: "v0"),
            ])
    }

    @Test func chargesPerCopy() {
        var hub = hub(maxViewers: 4)
        var actions: [SessionAction] = []
        hub.attachViewer(remotes[0], to: "s", into: &actions)
        for viewer in viewers.prefix(2) { _ = hub.receiveOnOneThread(Self.join, from: viewer, at: 1) }
        let watching = [remotes[0], viewers[0], viewers[1]]
        // `play` (15 bytes) makes two messages for each of three viewers: six copies.
        let play = Self.bytes(#"{"type":"play"}"#)
        #expect(
            hub.receiveOnOneThread(play, from: driver, at: 2)
                == [.send(driver, .transition(.played))] + watching.map { .send($0, .transition(.played)) }
                + [.frameDue(driver)] + watching.map { .frameDue($0) }
                + [.startTicking(fps: 60), .charge(driver, bytes: 6 * play.count)])
        // What reaches only its sender costs nothing more: a ping, from the driver or a viewer.
        let ping = Self.bytes(#"{"type":"ping","seq":1,"t":0}"#)
        #expect(
            hub.receiveOnOneThread(ping, from: driver, at: 3) == [.send(driver, .pong(seq: 1, t: 0, serverTime: 3000))])
        #expect(
            hub.receiveOnOneThread(ping, from: viewers[0], at: 3)
                == [.send(viewers[0], .pong(seq: 1, t: 0, serverTime: 3000))])
        // A refused message makes nothing for anyone, and is not charged.
        #expect(hub.receiveOnOneThread(play, from: viewers[0], at: 3).count == 1)
    }
}
