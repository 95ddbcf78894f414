import Testing
import TransitionCore

@testable import SandboxSession

/// The session state machine, action by action: messages in, exact action lists out.
@Suite("SessionHub") struct SessionHubStateTests {
    let driver = ConnectionID(number: 1)
    let viewer = ConnectionID(number: 2)
    let remote = ConnectionID(thread: 1, number: 9)

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func pointer(_ phase: String, x: Double, t: Double, seq: Int) -> [UInt8] {
        bytes(#"{"type":"pointer","phase":"\#(phase)","x":\#(x),"y":400,"t":\#(t),"seq":\#(seq)}"#)
    }

    /// A hub with a driver connected (its connect actions returned).
    func connected(_ hub: inout SessionHub, _ id: ConnectionID, session: String) -> [SessionAction] {
        var actions: [SessionAction] = []
        hub.connect(id, session: session, into: &actions)
        return actions
    }

    /// Received, with every `.lookUp` answered as a single thread does: not found.
    func receive(_ hub: inout SessionHub, _ bytes: [UInt8], from id: ConnectionID, at now: Double, binary: Bool = false)
        -> [SessionAction]
    {
        hub.receiveOnOneThread(bytes, binary: binary, from: id, at: now)
    }

    func errorCode(_ actions: [SessionAction]) -> String? {
        guard actions.count == 1, case .send(_, .error(let error)) = actions[0] else { return nil }
        return error.code
    }

    @Test func connectRegistersWelcomesAndSendsTheFirstFrame() {
        var hub = SessionHub()
        #expect(
            connected(&hub, driver, session: "s") == [
                .register(session: "s"), .send(driver, .welcome(session: "s", settings: SessionSettings())),
                .frameDue(driver),
            ])
        #expect(hub.sessionCount == 1 && hub.session(of: driver) == "s")
    }

    @Test func pingIsAnsweredWithTheServerTime() {
        var hub = SessionHub()
        _ = connected(&hub, driver, session: "s")
        #expect(
            receive(&hub, Self.bytes(#"{"type":"ping","seq":1,"t":5}"#), from: driver, at: 2) == [
                .send(driver, .pong(seq: 1, t: 5, serverTime: 2000))
            ])
    }

    @Test(arguments: [
        (#"{"type":"ping""#, "invalid-json"), (#"[1]"#, "not-an-object"), (#"{"type":"fly"}"#, "unknown-type"),
        (#"{"type":"configure","fps":0}"#, "invalid-config"), (#"{"type":"configure","fps":"x"}"#, "invalid-field"),
        (#"{"type":"configure","wings":2}"#, "unknown-field"),
        (#"{"type":"join","session":"nobody"}"#, "unknown-session"),
        (#"{"type":"join","session":"s"}"#, "invalid-field"),
        (#"{"type":"ping","seq":1,"t":0,"id":7}"#, "invalid-field"),
        (#"{"type":"play","id":"x","wings":1}"#, "unknown-field"),
        (#"{"type":"pointer","phase":"up","x":0,"y":0,"t":0,"seq":1}"#, "pointer-not-down"),
    ])
    func errorsChangeNothing(_ text: String, _ code: String) {
        var hub = SessionHub()
        _ = connected(&hub, driver, session: "s")
        let before = hub
        #expect(errorCode(receive(&hub, Self.bytes(text), from: driver, at: 1)) == code)
        #expect(hub == before)  // the whole state: sessions, connections, links
    }

    /// `errorsChangeNothing`'s comparison can fail: an accepted pointer changes the hub.
    @Test func anAcceptedMessageChangesTheHub() {
        var hub = SessionHub()
        _ = connected(&hub, driver, session: "s")
        let before = hub
        #expect(errorCode(receive(&hub, Self.pointer("down", x: 10, t: 0, seq: 1), from: driver, at: 1)) == nil)
        #expect(hub != before)
    }

    @Test func binaryIsRefused() {
        var hub = SessionHub()
        _ = connected(&hub, driver, session: "s")
        #expect(errorCode(receive(&hub, [1, 2], from: driver, at: 1, binary: true)) == "binary-not-supported")
    }

    @Test func configureAnswersEveryConnectionThenTheFrame() throws {
        var hub = SessionHub()
        _ = connected(&hub, driver, session: "s")
        _ = connected(&hub, viewer, session: "v")
        _ = receive(&hub, Self.bytes(#"{"type":"join","session":"s"}"#), from: viewer, at: 0.5)
        let actions = receive(&hub, Self.bytes(#"{"type":"configure","fps":30}"#), from: driver, at: 1)
        let settings = try #require(SessionSettings(fps: 30))
        #expect(
            actions == [
                .send(driver, .configured(session: "s", settings: settings, joined: false)),
                .send(viewer, .configured(session: "s", settings: settings, joined: false)),
                .frameDue(driver), .frameDue(viewer),
                // The viewer's two copies (29 bytes each), charged to the driver.
                .charge(driver, bytes: 2 * 29),
            ])
        #expect(
            errorCode(receive(&hub, Self.bytes(#"{"type":"configure","fps":30}"#), from: viewer, at: 1)) == "not-driver"
        )
    }

    @Test func aPanDrivesFramesTicksAndEnds() throws {
        var hub = SessionHub()
        _ = connected(&hub, driver, session: "s")
        var core = SessionCore(id: "s", settings: SessionSettings())  // the same steps, for the expected events
        func step(_ bytes: [UInt8], at now: Double) throws -> [SessionAction] {
            guard case .pointer(let message) = try ClientMessage.parse(bytes) else { fatalError() }
            let reaction = try core.pointer(message, receivedAt: now)
            var expected = reaction.events.map { SessionAction.send(driver, .transition($0)) }
            if reaction.frame { expected.append(.frameDue(driver)) }
            if core.engine.phase.isAnimating { expected.append(.startTicking(fps: 60)) }
            return expected
        }
        var t = 1000.0, now = 1.0
        for (seq, (phase, x)) in [("down", 100.0), ("move", 160), ("move", 230), ("move", 300), ("up", 300)]
            .enumerated()
        {
            let bytes = Self.pointer(phase, x: x, t: t, seq: seq + 1)
            let expected = try step(bytes, at: now)
            #expect(receive(&hub, bytes, from: driver, at: now) == expected, "\(phase)")
            t += 16; now += 0.016
        }
        #expect(errorCode(receive(&hub, Self.pointer("move", x: 1, t: t, seq: 2), from: driver, at: now)) == "bad-seq")
        #expect(
            errorCode(receive(&hub, Self.bytes(#"{"type":"configure","fps":30}"#), from: driver, at: now)) == "busy")
        #expect(errorCode(receive(&hub, Self.bytes(#"{"type":"play"}"#), from: driver, at: now)) == "busy")
        var last: [SessionAction] = []
        var tick = now
        while !last.contains(.stopTicking(fps: 60)) && tick < now + 5 {
            tick += 1.0 / 60
            last = []
            hub.tick(fps: 60, at: tick, into: &last)
        }
        let done = try #require(last.first { if case .send(_, .transition(.finished)) = $0 { true } else { false } })
        #expect(last == [done, .frameDue(driver), .stopTicking(fps: 60)])
        var after: [SessionAction] = []
        hub.tick(fps: 60, at: tick + 1, into: &after)
        #expect(after.isEmpty)
    }

    @Test func twoSessionsShareOneLinkPerFrameRate() {
        var hub = SessionHub()
        _ = connected(&hub, driver, session: "a")
        _ = connected(&hub, viewer, session: "b")
        #expect(receive(&hub, Self.bytes(#"{"type":"play"}"#), from: driver, at: 1).last == .startTicking(fps: 60))
        #expect(
            !receive(&hub, Self.bytes(#"{"type":"play"}"#), from: viewer, at: 1.01).contains(.startTicking(fps: 60)))
    }

    /// Sessions are dealt across the phases of the period (least loaded first); a tick of one phase
    /// advances only its sessions; `startTicking` comes for each phase that gains its first
    /// animating session (a running link plans again: it skips empty phases), `stopTicking`
    /// with the rate's last.
    @Test func tickPhasesDealSessionsAndTickOnlyTheirOwn() {
        var hub = SessionHub(tickPhases: 3)
        let ids = (1...4).map { ConnectionID(number: $0) }
        for (index, id) in ids.enumerated() { _ = connected(&hub, id, session: "s\(index)") }
        var started = 0
        for (index, id) in ids.enumerated() {
            let played = receive(&hub, Self.bytes(#"{"type":"play"}"#), from: id, at: 1 + Double(index) * 0.001)
            started += played.filter { $0 == .startTicking(fps: 60) }.count
        }
        #expect(started == 3)  // phases 0, 1, 2; the fourth session joins phase 0
        #expect((0..<3).allSatisfy { hub.isTicking(fps: 60, phase: $0) } && !hub.isTicking(fps: 60, phase: 3))
        func ticked(phase: Int, at now: Double) -> Set<ConnectionID> {
            var actions: [SessionAction] = []
            hub.tick(fps: 60, phase: phase, at: now, into: &actions)
            return Set(actions.compactMap { if case .frameDue(let id) = $0 { id } else { nil } })
        }
        #expect(ticked(phase: 0, at: 1.1) == [ids[0], ids[3]])  // dealt 0, 1, 2, 0
        #expect(ticked(phase: 1, at: 1.1) == [ids[1]])
        #expect(ticked(phase: 2, at: 1.1) == [ids[2]])
        #expect(ticked(phase: 3, at: 1.1).isEmpty)  // no such phase: nothing, no trap
        var actions: [SessionAction] = []
        for id in ids.dropLast() { hub.disconnect(id, into: &actions) }
        #expect(!actions.contains(.stopTicking(fps: 60)))
        hub.disconnect(ids[3], into: &actions)
        #expect(actions.filter { $0 == .stopTicking(fps: 60) }.count == 1)
    }

    /// A new session gets the least loaded phase: one that ended frees its phase.
    @Test func aNewSessionTakesTheLeastLoadedPhase() {
        var hub = SessionHub(tickPhases: 3)
        let ids = (1...4).map { ConnectionID(number: $0) }
        // phases 0, 1, 2
        for (index, id) in ids.prefix(3).enumerated() { _ = connected(&hub, id, session: "s\(index)") }
        var actions: [SessionAction] = []
        hub.disconnect(ids[1], into: &actions)  // frees phase 1
        _ = connected(&hub, ids[3], session: "s3")
        _ = receive(&hub, Self.bytes(#"{"type":"play"}"#), from: ids[3], at: 1)
        actions = []
        hub.tick(fps: 60, phase: 1, at: 1.1, into: &actions)
        #expect(actions.contains(.frameDue(ids[3])))
    }

    @Test func viewersJoinHearBroadcastsAndTheDriverLeavingEndsTheSession() {
        var hub = SessionHub()
        var frames = FrameCache(for: hub)
        _ = connected(&hub, driver, session: "s")
        _ = connected(&hub, viewer, session: "v")
        #expect(
            receive(&hub, Self.bytes(#"{"type":"join","session":"s"}"#), from: viewer, at: 1) == [
                .unregister(session: "v"),
                .send(viewer, .configured(session: "s", settings: SessionSettings(), joined: true)), .frameDue(viewer),
            ])
        // One encoding for both.
        #expect(frames.frame(for: viewer, in: hub, now: 1) === frames.frame(for: driver, in: hub, now: 1))
        #expect(
            errorCode(receive(&hub, Self.bytes(#"{"type":"join","session":"s"}"#), from: viewer, at: 1))
                == "invalid-field")
        #expect(errorCode(receive(&hub, Self.bytes(#"{"type":"play"}"#), from: viewer, at: 1)) == "not-driver")
        let played = receive(&hub, Self.bytes(#"{"type":"play"}"#), from: driver, at: 2)
        #expect(
            played == [
                .send(driver, .transition(.played)), .send(viewer, .transition(.played)),
                .frameDue(driver), .frameDue(viewer), .startTicking(fps: 60), .charge(driver, bytes: 2 * 15),
            ])
        var actions: [SessionAction] = []
        hub.disconnect(driver, into: &actions)
        #expect(actions == [.stopTicking(fps: 60), .unregister(session: "s"), .send(viewer, .sessionEnded("s"))])
        #expect(hub.session(of: viewer) == nil && frames.frame(for: viewer, in: hub, now: 3) == nil)
        #expect(
            errorCode(receive(&hub, Self.bytes(#"{"type":"join","session":"s"}"#), from: viewer, at: 3))
                == "unknown-session")
    }

    @Test func aFrameIsEncodedOncePerFrameNumber() {
        var hub = SessionHub()
        var frames = FrameCache(for: hub)
        _ = connected(&hub, driver, session: "s")
        let first = frames.frame(for: driver, in: hub, now: 0)
        #expect(first != nil && frames.frame(for: driver, in: hub, now: 5) === first)
        _ = receive(&hub, Self.pointer("down", x: 100, t: 0, seq: 1), from: driver, at: 1)
        #expect(frames.frame(for: driver, in: hub, now: 1) !== first)
    }

    @Test func joiningASessionOfAnotherThreadWatchesItThere() {
        var hub = SessionHub(thread: 0)
        _ = connected(&hub, viewer, session: "v")
        var actions: [SessionAction] = []
        hub.receive(Self.bytes(#"{"type":"join","session":"far"}"#), from: viewer, at: 1, into: &actions)
        #expect(actions == [.lookUp(viewer, session: "far", id: nil)])
        #expect(hub.session(of: viewer) == "v")  // nothing changes before the answer
        actions = []
        hub.watchElsewhere(viewer, session: "far", into: &actions)
        #expect(actions == [.watchElsewhere(viewer, session: "far")])
        #expect(hub.session(of: viewer) == "v")  // until the other thread accepts
        actions = []
        #expect(!hub.remoteJoinAccepted(viewer, session: "near", into: &actions) && actions.isEmpty)
        #expect(hub.remoteJoinAccepted(viewer, session: "far", into: &actions))
        #expect(actions == [.unregister(session: "v")])
        #expect(hub.session(of: viewer) == "far")
        #expect(
            errorCode(receive(&hub, Self.bytes(#"{"type":"join","session":"far"}"#), from: viewer, at: 1))
                == "invalid-field")
        hub.remoteWatchEnded(viewer, session: "other")  // another session's end: ignored
        #expect(hub.session(of: viewer) == "far")
        actions = []
        hub.disconnect(viewer, into: &actions)
        #expect(actions == [.stopWatchingElsewhere(viewer, session: "far")])
    }

    @Test func aRemoteJoinThatFoundNothingIsAnUnknownSession() {
        var hub = SessionHub(thread: 0)
        _ = connected(&hub, viewer, session: "v")
        var actions: [SessionAction] = []
        hub.watchElsewhere(viewer, session: "gone", into: &actions)
        actions = []
        hub.remoteJoinFailed(viewer, session: "gone", into: &actions)
        #expect(errorCode(actions) == "unknown-session" && hub.session(of: viewer) == "v")
    }

    @Test func theHostAttachesAndDetachesAViewerOfAnotherThread() {
        var hub = SessionHub(thread: 0)
        var frames = FrameCache(for: hub)
        _ = connected(&hub, driver, session: "s")
        var actions: [SessionAction] = []
        hub.attachViewer(remote, to: "s", into: &actions)
        #expect(
            actions == [
                .send(remote, .configured(session: "s", settings: SessionSettings(), joined: true)), .frameDue(remote),
            ])
        #expect(frames.frame(for: remote, in: hub, now: 1) === frames.frame(for: driver, in: hub, now: 1))
        actions = []
        hub.attachViewer(remote, to: "nothing", into: &actions)
        #expect(errorCode(actions) == "unknown-session")
        hub.detachViewer(remote, from: "s")
        #expect(
            receive(&hub, Self.bytes(#"{"type":"play"}"#), from: driver, at: 2) == [
                .send(driver, .transition(.played)), .frameDue(driver), .startTicking(fps: 60),
            ])
    }

    @Test func aDriverThatJoinsAnotherSessionEndsItsOwn() {
        var hub = SessionHub()
        _ = connected(&hub, driver, session: "s")
        _ = connected(&hub, viewer, session: "v")
        _ = receive(&hub, Self.bytes(#"{"type":"join","session":"s"}"#), from: viewer, at: 1)
        let third = ConnectionID(number: 3)
        _ = connected(&hub, third, session: "t")
        #expect(
            receive(&hub, Self.bytes(#"{"type":"join","session":"t"}"#), from: driver, at: 2) == [
                .unregister(session: "s"), .send(viewer, .sessionEnded("s")),
                .send(driver, .configured(session: "t", settings: SessionSettings(), joined: true)), .frameDue(driver),
                .charge(driver, bytes: 29),  // the viewer's `session-ended`
            ])
        #expect(hub.sessionCount == 1)
    }

    /// A completion that ends inside a pointer event leaves the
    /// session listed under its rate until the next tick; a `configure` of another fps then, and
    /// a disconnect, left it listed under the old rate, and that rate's next tick force-unwrapped
    /// a session that no longer existed (the process died).
    @Test func aSessionReconfiguredBetweenTicksLeavesItsOldRateAndTheHubSurvivesItsEnd() {
        var hub = SessionHub()
        _ = connected(&hub, driver, session: "s")
        #expect(receive(&hub, Self.bytes(#"{"type":"play"}"#), from: driver, at: 1).contains(.startTicking(fps: 60)))
        // Long after the completion's end, with no tick in between: a pointer brings it to rest.
        _ = receive(&hub, Self.pointer("down", x: 100, t: 5000, seq: 1), from: driver, at: 5)
        _ = receive(&hub, Self.pointer("up", x: 100, t: 5001, seq: 2), from: driver, at: 5)
        #expect(hub.engine(of: "s")?.phase == .finished)
        let configured = receive(&hub, Self.bytes(#"{"type":"configure","fps":30}"#), from: driver, at: 5)
        #expect(configured.contains(.stopTicking(fps: 60)))
        var actions: [SessionAction] = []
        hub.disconnect(driver, into: &actions)
        actions = []
        hub.tick(fps: 60, at: 5.1, into: &actions)
        hub.tick(fps: 30, at: 5.1, into: &actions)
        #expect(actions.isEmpty && hub.sessionCount == 0)
    }
}
