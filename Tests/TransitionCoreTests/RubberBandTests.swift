import PropertyBased
import Testing

@testable import TransitionCore

/// Rubber-banding past the clamp's limits (UIScrollView's formula).
@Suite("Rubber band")
struct RubberBandTests {
    static let band = RubberBand(constant: RubberBand.scrollViewConstant)

    @Test("the scroll-view formula (1 − 1/(x·c/d + 1))·d, worked numbers")
    func formula() {
        // x = d: 1 − 1/1.55 of the dimension.
        #expect(abs(Self.band.offset(overshoot: 100, dimension: 100) - (1 - 1 / 1.55) * 100) < 1e-12)
        // Scale-free: the same fraction of the dimension at any unit.
        #expect(abs(Self.band.offset(overshoot: 0.2, dimension: 0.2) - (1 - 1 / 1.55) * 0.2) < 1e-15)
        // x·c/d = 1 (x = d/c): half the dimension.
        #expect(abs(Self.band.offset(overshoot: 100 / 0.55, dimension: 100) - 50) < 1e-12)
        #expect(Self.band.offset(overshoot: 0, dimension: 100) == 0)
        #expect(Self.band.offset(overshoot: 1e300, dimension: 100) <= 100)
        #expect(Self.band.offset(overshoot: 50, dimension: 0) == 0)
    }

    /// UIScrollView's d in progress: a 390 pt container along x over a 200 pt distance.
    static let d = 390.0 / 200

    @Test("in progress: 1:1 within the limits, stretched by the container's extent beyond them, never past 0 or 1")
    func limit() {
        #expect(Self.band.limit(0.5, lower: 0.2, upper: 0.8, dimension: Self.d) == 0.5)
        #expect(Self.band.limit(0.8, lower: 0.2, upper: 0.8, dimension: Self.d) == 0.8)
        // raw 1.0 is 0.2 past 0.8 with d = 1.95: 0.8 + (1 − 1/(0.2·0.55/1.95 + 1))·1.95 ≈ 0.904
        let above = 0.8 + (1 - 1 / (0.2 * 0.55 / 1.95 + 1)) * 1.95
        #expect(abs(above - 0.904126) < 1e-6)
        #expect(abs(Self.band.limit(1.0, lower: 0.2, upper: 0.8, dimension: Self.d) - above) < 1e-15)
        #expect(abs(Self.band.limit(0, lower: 0.2, upper: 0.8, dimension: Self.d) - (0.2 - (above - 0.8))) < 1e-12)
        // The default clamp (0.01…0.99) is no longer capped at 0.01 of stretch: it reaches 1.
        #expect(Self.band.limit(1.01, lower: 0.01, upper: 0.99, dimension: Self.d) > 0.999)
        #expect(Self.band.limit(1.5, lower: 0.01, upper: 0.99, dimension: Self.d) == 1)
        // A limit on an end itself: nothing past the timeline's ends.
        #expect(Self.band.limit(3, lower: 0, upper: 1, dimension: Self.d) == 1)
        #expect(Self.band.limit(-3, lower: 0, upper: 1, dimension: Self.d) == 0)
        // Larger is looser: the same overshoot moves further with a larger constant.
        let stiff = RubberBand(constant: 0.2).limit(0.9, lower: 0.2, upper: 0.8, dimension: Self.d)
        let loose = RubberBand(constant: 1).limit(0.9, lower: 0.2, upper: 0.8, dimension: Self.d)
        #expect(stiff < Self.band.limit(0.9, lower: 0.2, upper: 0.8, dimension: Self.d) && loose > stiff)
    }

    static let constants = Gen.double(in: 0.01...1)
    static let limits = Gen.double(in: 0...0.49)
    static let dimensions = Gen.double(in: 0.01...40)

    @Test func continuousAtTheLimitsAndMonotonic() async {
        await propertyCheck(
            count: 500, input: Self.constants, Self.limits, Gen.double(in: -3...4), Gen.double(in: 0...0.5),
            Self.dimensions
        ) { c, lower, raw, step, d in
            let band = RubberBand(constant: c)
            let upper = 1 - lower
            // Monotonic: a finger further along never shows less progress.
            #expect(
                band.limit(raw + step, lower: lower, upper: upper, dimension: d)
                    >= band.limit(raw, lower: lower, upper: upper, dimension: d))
            // Within 0…1 always.
            let value = band.limit(raw, lower: lower, upper: upper, dimension: d)
            #expect(value >= 0 && value <= 1)
            // Continuous at each limit: a hair past it moves by at most c times the hair, within
            // the rounding of 1 − 1/(y + 1) scaled by d (a few ulps of 1, times d).
            let h = 1e-9
            let rounding = 4 * d * Double.ulpOfOne + 1e-15
            #expect(
                abs(band.limit(upper + h, lower: lower, upper: upper, dimension: d) - upper) <= c * h * (1 + 1e-6)
                    + rounding)
            #expect(
                abs(band.limit(lower - h, lower: lower, upper: upper, dimension: d) - lower) <= c * h * (1 + 1e-6)
                    + rounding)
            // Never more than the finger (slope ≤ c ≤ 1) and never more than d past the limit.
            if raw > upper {
                #expect(value - upper <= (raw - upper) * (1 + 1e-12) + rounding && value - upper <= d)
            }
        }
    }

    @Test("the engine stretches past the clamp by the container's extent along the pan (off by default)")
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
        // d = 390 pt / 200 pt: 0.8 + (1 − 1/(0.2·0.55/1.95 + 1))·1.95 ≈ 0.904
        #expect(abs(banded.progress - (0.8 + (1 - 1 / (0.2 * 0.55 / 1.95 + 1)) * 1.95)) < 1e-12)
        #expect(banded.frame().layers == banded.animator.layers(at: banded.progress * configuration.duration))
        // Along y the extent is the container's height: a stiffer-looking stretch on a taller d.
        configuration.pan.axis = .y
        var vertical = try InteractiveTransition(configuration: configuration)
        var v = Gesture()
        v.move(dx: 0, dy: 200, over: 0.5, steps: 30)
        _ = try vertical.apply(v.events)
        #expect(abs(vertical.progress - (0.8 + (1 - 1 / (0.2 * 0.55 / 4.22 + 1)) * 4.22)) < 1e-12)
    }

    @Test("the default clamp stretches past 0.99 (no longer capped at 0.01), up to 1")
    func defaultClamp() throws {
        var configuration = TransitionConfiguration(kind: .fade)
        configuration.rubberBand = 0.55
        var engine = try InteractiveTransition(configuration: configuration)
        var g = Gesture()
        g.move(dx: 199, over: 0.5, steps: 30)  // raw 0.995: 0.005 past 0.99
        _ = try engine.apply(g.events)
        #expect(abs(engine.progress - (0.99 + (1 - 1 / (0.005 * 0.55 / 1.95 + 1)) * 1.95)) < 1e-12)
        #expect(engine.progress > 0.992)
    }

    @Test("the constant is refused outside (0, 1]", arguments: [0, -1, 1.0000001, 2, 10, .nan, .infinity, 1e308])
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

    @Test(
        "the constant's range ends at 1 (the slope at the edge: 1:1)",
        arguments: [Double.leastNonzeroMagnitude, 0.55, 1])
    func constantAccepted(constant: Double) throws {
        var configuration = TransitionConfiguration()
        configuration.rubberBand = constant
        try configuration.validate()
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
