import Testing

@testable import TransitionCore

/// iOS 26's content swipe waits for a rightward, mostly horizontal movement. Source: the
/// decompile of iOS 26.1's UIKitCore (github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore),
/// `_UIParallaxTransitionPanGestureRecognizer _shouldTryToBeginWithEvent:`: hysteresis 30 pt
/// for touches; fails ("exceededYTranslation") once |y| ≥ min((30 − 10)/25·|x| + 10, 25);
/// begins once x ≥ 30 with the left edge as its edge; fails ("unsupportedEdge") once x ≤ −30.
@Suite("The content swipe's hysteresis")
struct ContentSwipeHysteresisTests {
    typealias H = ContentSwipeHysteresis

    @Test("the decompile's numbers: 30 pt, a y limit of 10 + 0.8·|x| capped at 25")
    func constants() {
        #expect(H.hysteresis == 30 && H.baseYLimit == 10 && H.maximumYLimit == 25)
        #expect(H.yLimit(dx: 0) == 10)
        #expect(H.yLimit(dx: 10) == 18 && H.yLimit(dx: -10) == 18)
        #expect(H.yLimit(dx: 18.75) == 25 && H.yLimit(dx: 300) == 25)
    }

    @Test(arguments: [
        (0.0, 0.0, H.Verdict.possible),
        (29.9, 0, .possible),
        (30, 0, .began),  // rightward: the leading-to-trailing direction pops
        (30, 24.9, .began),
        (30, -24.9, .began),
        (30, 25, .failed),  // too steep, whatever the x
        (0, 10, .failed),  // a vertical pan fails at 10 pt
        (0, -10, .failed),
        (5, 13.9, .possible),
        (5, 14, .failed),
        (-29.9, 0, .possible),
        (-30, 0, .failed),  // leftward: "unsupportedEdge"
        (1e308, 0, .began),
        (Double.infinity, 0, .failed),
        (Double.nan, 0, .failed),
        (0, Double.nan, .failed),
    ])
    func verdicts(_ x: Double, _ y: Double, _ verdict: H.Verdict) {
        #expect(H.verdict(translation: Point(x: x, y: y)) == verdict, "(\(x), \(y))")
    }

    /// Every translation has one verdict, and a steeper one is never more willing to begin.
    @Test func steeperNeverBeginsWhereShallowerFails() {
        for x in stride(from: -40.0, through: 60, by: 2.5) {
            var failedAt: Double?
            for y in stride(from: 0.0, through: 30, by: 0.5) {
                let verdict = H.verdict(translation: Point(x: x, y: y))
                if failedAt != nil { #expect(verdict == .failed, "(\(x), \(y))") }
                if verdict == .failed, failedAt == nil { failedAt = y }
            }
        }
    }
}
