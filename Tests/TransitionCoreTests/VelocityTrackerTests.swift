import Testing

@testable import TransitionCore

/// The tracker estimates once per sample, when it is added; what it reports must be that
/// sample's estimate, never an earlier one.
@Suite("Velocity tracker") struct VelocityTrackerTests {
    @Test("a steady pan: after each sample, the slope through the samples so far")
    func steadyPan() {
        var tracker = VelocityTracker()
        #expect(tracker.velocity == .zero)
        tracker.add(Point(x: 100, y: 50), at: 1.000)
        #expect(tracker.velocity == .zero)  // one sample: no slope yet
        for step in 1...30 {
            // 8 ms apart (120 Hz), 2 pt right and 1 pt up each time: 250 pt/s, −125 pt/s.
            let t = 1.000 + Double(step) * 0.008
            tracker.add(Point(x: 100 + 2 * Double(step), y: 50 - Double(step)), at: t)
            #expect(abs(tracker.velocity.x - 250) < 1e-6 && abs(tracker.velocity.y + 125) < 1e-6)
        }
    }

    @Test("a pause longer than the gap, then one sample: zero; reset: zero, and the next pan starts afresh")
    func stopAndReset() {
        var tracker = VelocityTracker()
        for step in 0..<5 { tracker.add(Point(x: Double(step) * 10, y: 0), at: Double(step) * 0.01) }
        #expect(abs(tracker.velocity.x - 1_000) < 1e-6)
        tracker.add(Point(x: 40, y: 0), at: 0.04 + VelocityTracker.maximumGap + 0.01)
        #expect(tracker.velocity == .zero)
        tracker.reset()
        #expect(tracker.velocity == .zero)
        tracker.add(Point(x: 0, y: 0), at: 1)
        tracker.add(Point(x: 0, y: 3), at: 1.01)
        #expect(abs(tracker.velocity.y - 300) < 1e-6 && tracker.velocity.x == 0)
    }
}
