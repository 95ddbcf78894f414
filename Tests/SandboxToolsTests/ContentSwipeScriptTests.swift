import Foundation
import SandboxSession
import Testing

@testable import SandboxTools

/// The content-swipe examples replayed in-process: each passes its expectations, and its frames
/// show the picture it is about (docs/SCENE.md, "The content-swipe pop (iOS 26)").
@Suite("Content-swipe scripts")
struct ContentSwipeScriptTests {
    typealias R = ReleaseRuleScriptTests

    /// The leftward drag tracks nothing; the rightward one begins at the 30 pt hysteresis,
    /// counted from its down point (the decompile's `_shouldTryToBeginWithEvent:`), and follows
    /// the finger 1:1 to 240 of 390 pt.
    @Test func aMidScreenPopTracksFromItsDownPoint() throws {
        let (report, frames) = try R.replay("scene-content-swipe-pop")
        #expect(report.passed && report.release?.reason == "projection")
        let tracking = R.tracking(frames)
        let first = try #require(tracking.first)
        #expect(first >= 30.0 / 390 && first < 60.0 / 390, "\(first)")
        #expect(abs(try #require(tracking.last) - 240.0 / 390) < 1e-3)
        #expect(zip(tracking, tracking.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// Neither drag in the content views, nor the iOS 18 one, tracks anything.
    @Test func theYieldingDragsTrackNothing() throws {
        let (report, frames) = try R.replay("scene-content-swipe-yields")
        #expect(report.passed && report.release == nil)
        #expect(R.tracking(frames).isEmpty && !frames.isEmpty)
    }
}
