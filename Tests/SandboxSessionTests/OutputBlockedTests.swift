import Testing

@testable import SandboxSession

/// A session none of whose connections can take a frame is not ticked; it ticks again when one
/// can, at the clock's time (the frames between are dropped, not the time).
@Suite("SessionHub output") struct OutputBlockedTests {
    let driver = ConnectionID(number: 1)
    let viewer = ConnectionID(number: 2)
    let remote = ConnectionID(thread: 1, number: 9)

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A hub with a session "s" playing at 60 fps (and `viewer` watching it, if asked).
    func playing(withViewer: Bool = false) -> SessionHub {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        if withViewer {
            hub.connect(viewer, session: "v", into: &actions)
            _ = hub.receiveOnOneThread(Self.bytes(#"{"type":"join","session":"s"}"#), from: viewer, at: 0)
        }
        let played = hub.receiveOnOneThread(Self.bytes(#"{"type":"play"}"#), from: driver, at: 1)
        #expect(played.contains(.startTicking(fps: 60)))
        return hub
    }

    func tick(_ hub: inout SessionHub, at now: Double) -> (advanced: Int, actions: [SessionAction]) {
        var actions: [SessionAction] = []
        let advanced = hub.tick(fps: 60, at: now, into: &actions)
        return (advanced, actions)
    }

    @Test func aSessionWhoseOnlyConnectionIsBlockedIsNotTickedAndResumesAtTheClocksTime() {
        var hub = playing()
        let before = hub
        hub.outputBlocked(driver)
        let blocked = hub
        let skipped = tick(&hub, at: 1.05)
        #expect(skipped.advanced == 0 && skipped.actions.isEmpty)
        #expect(hub == blocked)  // not advanced: the engine's state is as it was
        hub.outputFlowing(driver)
        #expect(hub == before)
        let resumed = tick(&hub, at: 1.2)
        #expect(resumed.advanced == 1 && resumed.actions.contains(.frameDue(driver)))
        // Where a session ticked all along would be at 1.2.
        var steady = before
        _ = tick(&steady, at: 1.05)
        _ = tick(&steady, at: 1.2)
        #expect(hub.engine(of: "s")?.progress == steady.engine(of: "s")?.progress)
    }

    @Test func aSessionTicksWhileAnyOfItsConnectionsCanTakeAFrame() {
        var hub = playing(withViewer: true)
        hub.outputBlocked(driver)
        let one = tick(&hub, at: 1.05)
        #expect(one.advanced == 1 && one.actions.contains(.frameDue(viewer)) && one.actions.contains(.frameDue(driver)))
        hub.outputBlocked(viewer)
        #expect(tick(&hub, at: 1.1).advanced == 0)
        hub.outputFlowing(viewer)
        #expect(tick(&hub, at: 1.15).advanced == 1)
    }

    @Test func aBlockedSessionStaysOnItsLinkAndEndsWhenTickedAfterItsEnd() {
        var hub = playing()
        hub.outputBlocked(driver)
        for step in 1...200 { #expect(tick(&hub, at: 1 + Double(step) / 60).actions.isEmpty) }
        #expect(hub.isTicking(fps: 60, phase: 0))
        hub.outputFlowing(driver)
        let resumed = tick(&hub, at: 10)  // long after any completion's end
        #expect(resumed.actions.contains(.stopTicking(fps: 60)))
        #expect(!hub.isTicking(fps: 60, phase: 0))
    }

    @Test func unknownConnectionsChangeNothing() {
        var hub = playing()
        let before = hub
        hub.outputBlocked(remote)
        hub.outputFlowing(ConnectionID(number: 77))
        #expect(hub == before)
    }

    /// A window ticks `count` sessions from `start`, wrapping round the phase's order.
    @Test func aWindowTicksItsSessionsInTurn() {
        var hub = SessionHub()
        let ids = (1...5).map { ConnectionID(number: $0) }
        var actions: [SessionAction] = []
        for (index, id) in ids.enumerated() {
            hub.connect(id, session: "s\(index)", into: &actions)
            _ = hub.receiveOnOneThread(Self.bytes(#"{"type":"play"}"#), from: id, at: 1)
        }
        var seen: [ConnectionID: Int] = [:]
        var start = 0
        for step in 1...5 {
            actions = []
            let advanced = hub.tick(
                fps: 60, at: 1 + Double(step) * 0.001, window: TickWindow(start: start, count: 2), into: &actions)
            #expect(advanced == 2)
            for case .frameDue(let id) in actions { seen[id, default: 0] += 1 }
            start = (start + 2) % 5
        }
        #expect(seen.count == 5 && seen.values.allSatisfy { $0 == 2 })
    }
}
