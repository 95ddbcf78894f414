import Testing
import TransitionCore

@testable import SandboxSession

/// A streaming session's frames reuse their storage: once warm, the executor's `FrameCache`
/// writes each state into the encoding, snapshot and buffers of the state before last (no
/// allocation per frame, docs/PERFORMANCE.md "Frame cost"), and never into storage that anything
/// else still holds.
@Suite("Frame recycling") struct FrameRecyclingTests {
    static let driver = SessionSceneTests.driver

    /// A 60 s completion played, as `sandbox bench` plays it: a new state every tick.
    static func streaming() -> SessionSceneTests.Harness {
        var h = SessionSceneTests.Harness()
        h.send(#"{"type":"configure","fps":60,"duration":60}"#)
        h.send(#"{"type":"play"}"#)
        return h
    }

    static func frame(_ h: inout SessionSceneTests.Harness) -> FrameEncoding? {
        h.frames.frame(for: driver, in: &h.hub, now: h.now)
    }

    static func tick(_ h: inout SessionSceneTests.Harness) {
        h.now += 1 / 60
        var actions: [SessionAction] = []
        h.hub.tick(fps: 60, at: h.now, into: &actions)
    }

    /// 300 frames after 10 of warm-up, each sent as a connection is (the delta after the one
    /// before, the full frame at each keyframe): no encoding object is made, the objects and
    /// the message buffers are the same two taking turns, and a client applying the messages
    /// holds every state's full frame.
    @Test func streamingReusesTwoEncodings() throws {
        var h = Self.streaming()
        var client = FrameAssembler()
        var last: UInt64?
        var objects: Set<ObjectIdentifier> = []
        var buffers: Set<UnsafeMutablePointer<UInt8>> = []
        var made = 0
        var deltas = 0
        for index in 0..<310 {
            Self.tick(&h)
            let frame = try #require(Self.frame(&h))
            let message = frame.message(after: last)
            let whole = client.apply(FrameDeltaTests.parse(message))
            #expect(whole == FrameDeltaTests.parse(frame.full), "state \(frame.number): \(message.text)")
            last = frame.id
            guard index >= 10 else {
                made = h.frames.encodingsMade
                continue
            }
            if frame.baseID != nil {
                deltas += 1
                buffers.insert(message.withBuffer { $0 })
            }
            objects.insert(ObjectIdentifier(frame))
        }
        #expect(h.hub.isAnimating("s"))
        #expect(deltas >= 290)
        #expect(h.frames.encodingsMade == made)
        #expect(objects.count == 2)
        #expect(buffers.count == 2)
    }

    /// A frame held elsewhere (a simulated link's held frame, a message in flight) keeps its
    /// bytes while the session streams on: its storage is not reused, new storage is made.
    @Test func heldStorageIsNeverWrittenOver() throws {
        var h = Self.streaming()
        for _ in 0..<5 {
            Self.tick(&h)
            _ = h.frames.frame(for: Self.driver, in: &h.hub, now: h.now)?.delta
        }
        Self.tick(&h)
        let held = try #require(Self.frame(&h))
        let (heldID, heldNumber) = (held.id, held.number)
        let heldFull = held.full.text, heldDelta = try #require(held.delta?.text)
        Self.tick(&h)
        // Only the message, not its encoding: the buffer is the delta's, still in use.
        let inFlight = try #require(Self.frame(&h)?.delta)
        let inFlightText = inFlight.text
        let before = h.frames.encodingsMade
        for _ in 0..<6 {
            Self.tick(&h)
            let frame = try #require(Self.frame(&h))
            #expect(frame !== held)
            _ = frame.delta
        }
        #expect(held.id == heldID && held.number == heldNumber)
        #expect(held.full.text == heldFull && held.delta?.text == heldDelta)
        #expect(inFlight.text == inFlightText)
        // The held encoding's turn came (every other frame): a new one was made in its place.
        #expect(h.frames.encodingsMade > before)
    }

    /// A frame whose delta was never asked for keeps the state before it as its base: that
    /// snapshot is not written over when its encoding's turn comes (a new one is made), and the
    /// delta, asked for late, is still right.
    @Test func aBaseStillNeededIsKept() throws {
        var h = Self.streaming()
        Self.tick(&h)
        // Only the bytes of the first state are kept here, not its encoding.
        var first = h.frames.frame(for: Self.driver, in: &h.hub, now: h.now)
        let firstFull = try #require(first?.full.text), firstID = first?.id
        first = nil
        Self.tick(&h)
        let second = try #require(Self.frame(&h))
        #expect(second.baseID == firstID)
        let before = h.frames.encodingsMade
        Self.tick(&h)
        let third = try #require(Self.frame(&h))
        // The first state's encoding was free and is reused; its parts, still the base of the
        // second's delta, were not written over.
        #expect(h.frames.encodingsMade == before)
        #expect(third.number == second.number + 1)
        var client = FrameAssembler()
        _ = client.apply(FrameDeltaTests.json(firstFull))
        let delta = try #require(second.delta)
        #expect(client.apply(FrameDeltaTests.parse(delta)) == FrameDeltaTests.parse(second.full))
    }
}
