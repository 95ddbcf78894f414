import Testing
import TransitionCore

@testable import SandboxSession

/// What a simulated link charges a held frame (`FrameEncoding.bytes`, recorded when the frame is
/// held) covers what the frame keeps alive over its whole hold: its parts, and the full frame's
/// and the delta's buffers — including a buffer made before it is written (the full frame's is
/// made with the encoding) and a buffer sized ahead of its message (`capacity(for:)`).
@Suite("Frame charge") struct FrameChargeTests {
    static let driver = SessionSceneTests.driver

    /// Charged when held (before either message is made) against what is kept once both are.
    static func check(_ frame: FrameEncoding) throws {
        let charged = frame.bytes
        let snapshot = try #require(frame.snapshot)
        let full = frame.full
        let delta = frame.delta
        let kept = snapshot.retainedBytes + full.retainedBytes + (delta?.retainedBytes ?? 0)
        #expect(charged >= kept, "frame \(frame.number): charged \(charged), keeps \(kept)")
        // And after the delta is made (its base let go), what it charges now still covers it.
        #expect(frame.bytes >= kept, "frame \(frame.number) after: charged \(frame.bytes), keeps \(kept)")
    }

    @Test func aStreamedFrameIsChargedWhatItKeeps() throws {
        var h = FrameRecyclingTests.streaming()
        for index in 0..<40 {
            FrameRecyclingTests.tick(&h)
            let frame = try #require(FrameRecyclingTests.frame(&h))
            // Every other frame held (as a slow link holds them), so new encodings are made too.
            if index % 2 == 0 { try Self.check(frame) } else { _ = frame.delta }
        }
    }
}
