import PropertyBased
import Testing

@testable import TransitionCore

/// Rubber-banding past the clamp's limits (issue 14; UIScrollView's formula).
@Suite("Rubber band")
struct RubberBandTests {
    static let band = RubberBand(constant: RubberBand.scrollViewConstant)

    @Test("the scroll-view formula (1 − 1/(x·c/d + 1))·d, worked numbers")
    func formula() {
        // x = d: 1 − 1/1.55 of the room.
        #expect(abs(Self.band.offset(overshoot: 100, room: 100) - (1 - 1 / 1.55) * 100) < 1e-12)
        // Scale-free: the same fraction of the room at any unit.
        #expect(abs(Self.band.offset(overshoot: 0.2, room: 0.2) - (1 - 1 / 1.55) * 0.2) < 1e-15)
        // x·c/d = 1 (x = d/c): half the room.
        #expect(abs(Self.band.offset(overshoot: 100 / 0.55, room: 100) - 50) < 1e-12)
        #expect(Self.band.offset(overshoot: 0, room: 100) == 0)
        #expect(Self.band.offset(overshoot: 1e300, room: 100) <= 100)
        #expect(Self.band.offset(overshoot: 50, room: 0) == 0)
    }

    @Test("in progress: 1:1 within the limits, stretched toward 0 and 1 beyond them")
    func limit() {
        #expect(Self.band.limit(0.5, lower: 0.2, upper: 0.8) == 0.5)
        #expect(Self.band.limit(0.8, lower: 0.2, upper: 0.8) == 0.8)
        // raw 1.0 is 0.2 past 0.8 with 0.2 of room: 0.8 + (1 − 1/1.55)·0.2
        #expect(abs(Self.band.limit(1.0, lower: 0.2, upper: 0.8) - (0.8 + (1 - 1 / 1.55) * 0.2)) < 1e-15)
        #expect(abs(Self.band.limit(0, lower: 0.2, upper: 0.8) - (0.2 - (1 - 1 / 1.55) * 0.2)) < 1e-15)
        // No room at a limit on the end itself: a hard stop.
        #expect(Self.band.limit(3, lower: 0, upper: 1) == 1)
        #expect(Self.band.limit(-3, lower: 0, upper: 1) == 0)
    }

    static let constants = Gen.double(in: 0.01...10)
    static let limits = Gen.double(in: 0...0.49)

    @Test func continuousAtTheLimitsAndMonotonic() async {
        await propertyCheck(
            count: 500, input: Self.constants, Self.limits, Gen.double(in: -3...4), Gen.double(in: 0...0.5)
        ) { c, lower, raw, step in
            let band = RubberBand(constant: c)
            let upper = 1 - lower
            // Monotonic: a finger further along never shows less progress.
            #expect(band.limit(raw + step, lower: lower, upper: upper) >= band.limit(raw, lower: lower, upper: upper))
            // Within 0…1 always.
            let value = band.limit(raw, lower: lower, upper: upper)
            #expect(value >= 0 && value <= 1)
            // Continuous at each limit: a hair past it moves by at most c times the hair.
            let h = 1e-9
            #expect(abs(band.limit(upper + h, lower: lower, upper: upper) - upper) <= c * h * (1 + 1e-6) + 1e-15)
            #expect(abs(band.limit(lower - h, lower: lower, upper: upper) - lower) <= c * h * (1 + 1e-6) + 1e-15)
            // Never reaches the end while there is room: the asymptote is the end.
            if upper < 1, raw > upper, raw < upper + 1 {
                #expect(band.limit(raw, lower: lower, upper: upper) < 1)
            }
        }
    }

    @Test("the engine stretches past the clamp instead of stopping (off by default)")
    func engineStretches() throws {
        var configuration = TransitionConfiguration(kind: .fade)
        (configuration.clampLower, configuration.clampUpper) = (0.2, 0.8)
        var clamped = try InteractiveTransition(configuration: configuration)
        configuration.rubberBand = 0.55
        var banded = try InteractiveTransition(configuration: configuration)
        var g = Gesture()
        g.move(dx: 200, over: 0.5, steps: 30)  // raw progress 1.0
        _ = try clamped.apply(g.events)
        _ = try banded.apply(g.events)
        #expect(clamped.progress == 0.8)
        #expect(abs(banded.progress - (0.8 + (1 - 1 / 1.55) * 0.2)) < 1e-12)
        #expect(banded.frame().layers == banded.animator.layers(at: banded.progress * configuration.duration))
    }

    @Test("the constant is refused outside (0, 10]", arguments: [0, -1, 10.5, .nan, .infinity, 1e308])
    func constantRange(constant: Double) {
        var configuration = TransitionConfiguration()
        configuration.rubberBand = constant
        do {
            try configuration.validate()
            Issue.record("accepted \(constant)")
        } catch {
            #expect(error.field == "rubberBand")
        }
    }

    @Test func trackingWithTheBandStaysWithin0And1AndFollowsTheFingerMonotonically() async {
        await propertyCheck(count: 200, input: Gen.double(in: 0...30).array(of: 1...40), Self.constants) { steps, c in
            var configuration = TransitionConfiguration(kind: .fade)
            configuration.rubberBand = c
            (configuration.clampLower, configuration.clampUpper) = (0.1, 0.9)
            var engine = try! InteractiveTransition(configuration: configuration)
            var previous = 0.0
            for event in PropertyTests.gesture(steps, hold: 0).dropLast() {
                _ = try! engine.handle(event)
                guard engine.phase == .tracking else { continue }
                #expect(engine.progress >= previous && engine.progress >= 0 && engine.progress <= 1)
                previous = engine.progress
            }
        }
    }
}
