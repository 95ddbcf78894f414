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

    /// A capped spring is fitted to the cap (× timeScale) and read in its own time, so it leaves
    /// the release at the release velocity and settles sooner; reading a 600 s spring 10 times
    /// faster would jump from the release to the end in one frame (an iOS engineer's review, with
    /// `UISpringTimingParameters.initialVelocity` in units of the remaining distance per second).
    @Test("a capped spring leaves the release at the release velocity", arguments: [1.0, 0.5])
    func aCappedSpringKeepsItsStartVelocity(timeScale: Double) throws {
        var c = TransitionConfiguration(kind: .push)
        c.duration = 60
        c.completionSpeed = 0.1  // 0.6 of the way left × 60 s / 0.1: a 360 s curve, capped at 60 s
        c.completionCurve = .spring
        c.timeScale = timeScale
        var engine = try InteractiveTransition(configuration: c)
        let g = Gesture.pan(dx: 0.4 * c.distance, over: 0.1)  // a flick: released moving
        _ = try engine.apply(g.events)
        let release = try #require(engine.lastRelease)
        #expect(engine.phase.isAnimating && release.velocity > 1)
        let frame = 1.0 / 240
        _ = engine.advance(to: g.time + frame)
        let step = engine.progress - release.progress
        // On screen the spring starts at timeScale × the release velocity (within 15 %: a
        // spring's velocity changes within the first frame).
        #expect(abs(step / frame - timeScale * release.velocity) < 0.15 * timeScale * release.velocity)
        #expect(try #require(engine.completionEndTime) - g.time == 60)
    }

    @Test("a 60 s play slowed 20 times is capped at 60 s; the bound over every setting is 60 s + the flash")
    func playAndBound() throws {
        var c = TransitionConfiguration(kind: .fade)
        c.duration = 60
        c.timeScale = 0.05
        var engine = try InteractiveTransition(configuration: c)
        _ = try engine.play(at: 0)
        #expect(engine.completionEndTime == 60)
        c.pitfalls = [.negativeCompletionSpeed]
        #expect(c.longestAnimation == TransitionConfiguration.longestPossibleAnimation)
        #expect(abs(TransitionConfiguration.longestPossibleAnimation - (60 + 1.0 / 60)) < 1e-12)
    }
}
