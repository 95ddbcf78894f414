import Testing

@testable import TransitionCore

/// `TransitionConfiguration.longestCompletion`: no completion or play runs longer than 60 s on
/// the display link, whatever its duration, completionSpeed, durationFactor and timeScale; a
/// longer one plays its whole curve, faster, and still ends on the exact state.
@Suite("Completion cap")
struct CompletionCapTests {
    static func released(_ c: TransitionConfiguration, dx: Double = 40) throws -> (InteractiveTransition, Double) {
        var engine = try InteractiveTransition(configuration: c)
        let g = Gesture.pan(dx: dx, over: 0.25, hold: 0.2)  // no velocity left: the threshold decides
        _ = try engine.apply(g.events)
        return (engine, g.time)
    }

    @Test("speed 0.01 over a 60 s duration: 60 s, not 6,000")
    func slowestCompletion() throws {
        var c = TransitionConfiguration(kind: .fade)
        c.duration = 60
        c.completionSpeed = 0.01
        let (engine, release) = try Self.released(c)
        #expect(engine.phase == .cancelling)
        #expect(try #require(engine.completionEndTime) - release == TransitionConfiguration.longestCompletion)
        #expect(c.longestAnimation == 60)
    }

    @Test("below the cap a completion keeps its own length")
    func underTheCap() throws {
        var c = TransitionConfiguration(kind: .fade)
        c.duration = 10
        c.completionSpeed = 0.5
        let (engine, release) = try Self.released(c)  // progress 0.2: 0.2 × 10 / 0.5 = 4 s
        #expect(abs(try #require(engine.completionEndTime) - release - 4) < 1e-12)
    }

    @Test(
        "every driver, curve and timeScale is capped, and the capped run ends exactly",
        arguments: [TransitionDriver.percentDriven, .propertyAnimator])
    func cappedEverywhere(driver: TransitionDriver) throws {
        for curve in [CompletionCurve.timing(.easeInEaseOut), .spring] {
            for timeScale in [1, 0.05] {
                var c = TransitionConfiguration(kind: .push)
                c.duration = 60
                c.completionSpeed = 0.01
                c.completionCurve = curve
                c.driver = driver
                c.propertyAnimator.durationFactor = 10
                c.timeScale = timeScale
                let released = try Self.released(c)
                var engine = released.0
                let release = released.1
                let end = try #require(engine.completionEndTime)
                #expect(end - release == 60)
                #expect(end - release <= c.longestAnimation)
                var previous = engine.progress
                var t = release
                while engine.phase.isAnimating && t < end + 1 {
                    t += 0.5
                    _ = engine.advance(to: t)
                    #expect(engine.progress <= previous + 1e-12 && engine.progress.isFinite)
                    previous = engine.progress
                }
                #expect(engine.phase == .cancelled && engine.progress == 0)
            }
        }
    }

    @Test("a 60 s play slowed 20 times is capped at 60 s; the bound over every setting is 60 s + the slowed flash")
    func playAndBound() throws {
        var c = TransitionConfiguration(kind: .fade)
        c.duration = 60
        c.timeScale = 0.05
        var engine = try InteractiveTransition(configuration: c)
        _ = try engine.play(at: 0)
        #expect(engine.completionEndTime == 60)
        c.pitfalls = [.negativeCompletionSpeed]
        #expect(c.longestAnimation == TransitionConfiguration.longestPossibleAnimation)
        #expect(abs(TransitionConfiguration.longestPossibleAnimation - (60 + 1.0 / 3)) < 1e-12)
    }
}
