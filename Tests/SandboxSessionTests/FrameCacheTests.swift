import Testing

@testable import SandboxSession

/// The executor's frames: reading one leaves the hub as it was, and a session that ends leaves
/// no frame behind.
@Suite("FrameCache") struct FrameCacheTests {
    let driver = ConnectionID(number: 1)

    @Test func readingAFrameLeavesTheHubAsItWas() {
        var hub = SessionHub()
        var frames = FrameCache(for: hub)
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        let before = hub
        #expect(frames.frame(for: driver, in: hub, now: 0) != nil)
        #expect(hub == before && frames.count == 1)
    }

    @Test func endedSessionForgotten() {
        var hub = SessionHub()
        var frames = FrameCache(for: hub)
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        _ = frames.frame(for: driver, in: hub, now: 0)
        actions.removeAll()
        hub.disconnect(driver, into: &actions)
        for case .unregister(let session) in actions { frames.forget(session) }
        #expect(actions.contains(.unregister(session: "s")))
        #expect(frames.count == 0 && frames.frame(for: driver, in: hub, now: 1) == nil)
    }
}
