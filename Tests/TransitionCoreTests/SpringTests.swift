import Foundation
import Testing

@testable import TransitionCore

@Suite("Springs")
struct SpringTests {
    /// Fourth-order Runge–Kutta on m·x'' + c·x' + k·x = 0 from x = 1, x' = −v0.
    static func integrate(_ s: Spring, until end: Double, step h: Double = 1e-5) -> [(t: Double, value: Double)] {
        var x = 1.0
        var v = -s.initialVelocity
        var t = 0.0
        var out: [(Double, Double)] = []
        func a(_ x: Double, _ v: Double) -> Double { -(s.damping * v + s.stiffness * x) / s.mass }
        let steps = Int((end / h).rounded())
        for i in 0...steps {
            if i % 1000 == 0 { out.append((t, 1 - x)) }
            let k1x = v, k1v = a(x, v)
            let k2x = v + h / 2 * k1v, k2v = a(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = a(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = a(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t = Double(i + 1) * h
        }
        return out
    }

    static let springs: [Spring] = [
        Spring(mass: 1, stiffness: 100, damping: 10),  // ζ = 0.5, under-damped
        Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 3),  // ζ = 1, critical
        Spring(mass: 3, stiffness: 1000, damping: 500),  // ζ ≈ 4.56, over-damped
        Spring(mass: 1, stiffness: 300, damping: 4, initialVelocity: -2),  // light damping, moving away
    ]

    @Test("the closed form agrees with a fine numerical integration to 1e-6", arguments: 0..<4)
    func closedFormMatchesIntegration(index: Int) {
        let spring = Self.springs[index]
        for (t, value) in Self.integrate(spring, until: 1.5) {
            #expect(abs(spring.value(at: t) - value) < 1e-6, "t = \(t)")
        }
    }

    @Test("velocity is the derivative of value", arguments: 0..<4)
    func velocityIsDerivative(index: Int) {
        let spring = Self.springs[index]
        for t in stride(from: 0.0, through: 1.0, by: 0.05) {
            let h = 1e-6
            let numeric = (spring.value(at: t + h) - spring.value(at: t - h)) / (2 * h)
            #expect(abs(spring.velocity(at: t) - numeric) < 1e-4 * max(1, abs(numeric)))
        }
        #expect(abs(spring.velocity(at: 0) - spring.initialVelocity) < 1e-9)
    }

    @Test("damping ratios of the documented defaults")
    func defaults() {
        #expect(abs(Spring.coreAnimationDefault.dampingRatio - 0.5) < 1e-12)
        #expect(abs(Spring.uiKitDefault.dampingRatio - 4.564354645876384) < 1e-9)
    }

    @Test("response / dampingFraction: k = (2π/response)²·m, c = 4π·ζ·m/response")
    func responseForm() {
        let s = Spring(response: 0.5, dampingFraction: 0.8)
        #expect(abs(s.stiffness - pow(2 * .pi / 0.5, 2)) < 1e-9)
        #expect(abs(s.damping - 4 * .pi * 0.8 / 0.5) < 1e-9)
        #expect(abs(s.dampingRatio - 0.8) < 1e-12)
    }

    @Test("settling duration: inside the tolerance from then on, outside just before")
    func settling() {
        for spring in Self.springs {
            let settle = spring.settlingDuration()
            for t in stride(from: settle, through: settle + 5, by: 0.001) {
                #expect(abs(spring.displacement(at: t)) <= Spring.settlingTolerance + 1e-12)
            }
            #expect(abs(spring.displacement(at: settle - 1e-7)) > Spring.settlingTolerance - 1e-6)
        }
    }

    @Test(
        "UIKit-style springs settle exactly at their duration and end on exactly 1",
        arguments: [(0.4, 1.0, 0.0), (1.0, 0.5, 0.0), (0.4, 2.0, 2.5), (3.0, 0.8, -1.0), (0.15, 0.3, 0.0)])
    func uiKitStyle(ratio: Double, duration: Double, velocity: Double) {
        let timing = SpringTiming(dampingRatio: ratio, duration: duration, initialVelocity: velocity)
        #expect(abs(timing.spring.settlingDuration() - duration) < 1e-6 * duration)
        #expect(abs(timing.spring.dampingRatio - ratio) < 1e-12)
        #expect(timing.value(at: 0) == 0)
        #expect(timing.value(at: duration) == 1)
        // just before the end the spring is at the edge of the tolerance: that is where it settles
        #expect(abs(timing.value(at: duration * 0.999_999) - 1) <= Spring.settlingTolerance * 1.001)
        #expect(abs(timing.spring.velocity(at: 0) - velocity) < 1e-12)
    }

    @Test("initial velocity 1.0 covers the whole distance in one second (200 pt at 100 pt/s → 0.5)")
    func velocityUnits() {
        let timing = SpringTiming(dampingRatio: 1, duration: 1, initialVelocity: 100.0 / 200.0)
        let h = 1e-7
        #expect(abs(timing.spring.value(at: h) / h - 0.5) < 1e-4)
    }

    // MARK: - The closed-form settling duration against the former stepper

    /// The former `Spring.settlingDuration`, kept as the reference: step at 1/(40·ω₀) until the
    /// envelope is below the tolerance (and ω₀·t ≥ 2), remember the last step outside, then bisect
    /// the crossing 50 times. Up to ~18,000 steps at ζ = 0.05 or 10.
    static func steppedSettlingDuration(_ s: Spring, tolerance: Double = Spring.settlingTolerance) -> Double {
        let step = 1 / (40 * s.naturalFrequency)
        var lastOutside = -1.0
        var t = 0.0
        while s.envelope(at: t) >= tolerance || t * s.naturalFrequency < 2 {
            if abs(s.displacement(at: t)) > tolerance { lastOutside = t }
            t += step
            if t * s.naturalFrequency > 1e6 { break }
        }
        if lastOutside < 0 { return 0 }
        var low = lastOutside
        var high = lastOutside + step
        for _ in 0..<50 {
            let mid = (low + high) / 2
            if abs(s.displacement(at: mid)) > tolerance { low = mid } else { high = mid }
        }
        return high
    }

    /// The former `SpringTiming.fit`: 60 bisection steps over the stepper.
    static func steppedFit(dampingRatio zeta: Double, duration: Double, initialVelocity v: Double) -> Spring {
        let unit = steppedSettlingDuration(Spring(dampingRatio: zeta, naturalFrequency: 1))
        var omega0 = max(unit, 1e-6) / duration
        if v != 0 {
            var low = log(omega0 / 1e3)
            var high = log(omega0 * 1e3)
            for _ in 0..<60 {
                let mid = (low + high) / 2
                let spring = Spring(dampingRatio: zeta, naturalFrequency: exp(mid), initialVelocity: v)
                if steppedSettlingDuration(spring) > duration { low = mid } else { high = mid }
            }
            omega0 = exp(high)
        }
        return Spring(dampingRatio: zeta, naturalFrequency: omega0, initialVelocity: v)
    }

    /// Random draws for the property tests, the same on every platform (`SplitMix64`).
    struct SplitMix {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        /// Uniform in [0, 1).
        mutating func next() -> Double { generator.unit() }
        /// 10^uniform(lo, hi)
        mutating func logUniform(_ lo: Double, _ hi: Double) -> Double { pow(10, lo + (hi - lo) * next()) }
    }

    /// Random (ζ, v/ω₀, ω₀): ζ log-uniform over 0.05…10 (with 1 and 1 ± 1e-8 mixed in), |v|/ω₀
    /// log-uniform over 1e-4…1e5 of either sign (and 0), ω₀ log-uniform over 1e-3…1e4.
    static func randomSprings(count: Int, seed: UInt64) -> [Spring] {
        var random = SplitMix(state: seed)
        return (0..<count).map { i in
            let zeta = [1.0, 1 + 1e-8, 1 - 1e-8][safe: i % 17] ?? random.logUniform(log10(0.05), 1)
            let omega0 = random.logUniform(-3, 4)
            let sign: Double = random.next() < 0.5 ? -1 : 1
            let normalised = i % 13 == 0 ? 0 : sign * random.logUniform(-4, 5)
            return Spring(dampingRatio: zeta, naturalFrequency: omega0, initialVelocity: normalised * omega0)
        }
    }

    @Test("closed-form settling equals the former stepper's to 1e-10 relative over random (ζ, v)")
    func settlingMatchesStepper() {
        var missedPeaks = 0
        let springs = Self.randomSprings(count: 600, seed: 14)
        for spring in springs + Self.springs {
            let new = spring.settlingDuration()
            let old = Self.steppedSettlingDuration(spring)
            if abs(new - old) <= 1e-10 * old { continue }  // measured: 7e-14 at worst, no missed peak
            // The stepper samples every 1/(40·ω₀) and can step over a peak that pokes above the
            // tolerance by less than ~1e-4 of it; the closed form finds that later crossing. Check
            // that this is what happened: `new` is a genuine crossing, and between the two |x|
            // exceeds the tolerance by less than 1e-4 of it.
            missedPeaks += 1
            #expect(
                new > old,
                "ζ \(spring.dampingRatio) ω₀ \(spring.naturalFrequency) v \(spring.initialVelocity): \(new) vs \(old)")
            #expect(abs(spring.displacement(at: new * (1 - 1e-9))) > Spring.settlingTolerance)
            var peak = 0.0
            for k in 0...2_000 { peak = max(peak, abs(spring.displacement(at: old + (new - old) * Double(k) / 2_000))) }
            #expect(peak < Spring.settlingTolerance * (1 + 1e-4), "peak \(peak)")
        }
        #expect(missedPeaks <= springs.count / 100, "\(missedPeaks) missed peaks")
    }

    @Test("closed-form settling: inside the tolerance from then on, outside just before, random (ζ, v)")
    func settlingIsTheLastCrossing() {
        for spring in Self.randomSprings(count: 200, seed: 41) {
            let settle = spring.settlingDuration()
            let scale = 1 / spring.naturalFrequency
            #expect(abs(spring.displacement(at: settle)) <= Spring.settlingTolerance)
            #expect(abs(spring.displacement(at: settle - 1e-9 * max(settle, scale))) > Spring.settlingTolerance)
            for k in 1...400 {
                let t = settle + scale * Double(k) * 0.05
                #expect(abs(spring.displacement(at: t)) <= Spring.settlingTolerance)
            }
        }
    }

    @Test("settling at the ends: no damping gives up at ω₀·t = 1e6, tolerance ≥ 1 settles at once")
    func settlingEnds() {
        let undamped = Spring(dampingRatio: 0, naturalFrequency: 2, initialVelocity: 1)
        let settle = undamped.settlingDuration()
        #expect(settle.isFinite && settle > 1e6 / 2 - .pi / 2 && settle <= 1e6 / 2 + .pi / 2)  // ± half a period
        #expect(Spring(dampingRatio: 0.3, naturalFrequency: 1).settlingDuration(tolerance: 1) == 0)
        #expect(Spring(dampingRatio: 3, naturalFrequency: 1).settlingDuration(tolerance: 2) == 0)
    }

    @Test("the fitted springs are the former fit's: ω₀ to 1e-10, the motion to 1e-7 of the distance")
    func fitMatchesStepper() {
        var random = SplitMix(state: 7)
        var cases: [(Double, Double, Double)] = [(0.05, 0.5, 100), (10, 0.5, 100), (0.3, 6000, -100), (1, 0.02, 3)]
        for _ in 0..<10 {
            let zeta = random.logUniform(log10(0.05), 1)
            let duration = random.logUniform(-2, 3.8)
            let velocity = (random.next() < 0.5 ? -1 : 1) * random.logUniform(-2, 2)
            cases.append((zeta, duration, velocity))
        }
        for (zeta, duration, velocity) in cases {
            let new = SpringTiming(dampingRatio: zeta, duration: duration, initialVelocity: velocity)
            let old = Self.steppedFit(dampingRatio: zeta, duration: duration, initialVelocity: velocity)
            let label = "ζ \(zeta) duration \(duration) v \(velocity)"
            // measured: ω₀ within 6e-13, the motion within 2e-9 (ζ 0.3, 6,000 s, v −100)
            #expect(abs(new.spring.naturalFrequency / old.naturalFrequency - 1) < 1e-10, "\(label)")
            var worst = 0.0
            for k in 0...2_000 {
                let t = duration * Double(k) / 2_000
                worst = max(worst, abs(new.spring.value(at: t) - old.value(at: t)))
            }
            #expect(worst < 1e-7, "\(label): \(worst)")
        }
    }

    @Test(
        "fitted completions at the allowed edges start at the release velocity and end at rest",
        arguments: [0.05, 0.3, 1, 1 + 1e-8, 10])
    func fitAtTheEdges(zeta: Double) {
        for velocity in [-100.0, -1, 0.01, 1, 100] {
            for duration in [1e-9, 0.01, 0.5, 60, 6000] {
                let timing = SpringTiming(dampingRatio: zeta, duration: duration, initialVelocity: velocity)
                let label = "ζ \(zeta) v \(velocity) duration \(duration)"
                // Settled by the duration. Under-damped, the settling time jumps by half a period
                // where a peak sinks below the tolerance as ω₀ grows, so the fit (the jump) may
                // settle up to half a period early (ζ = 0.05, |v| = 100, 6,000 s: 17 s early).
                let settle = timing.spring.settlingDuration()
                let halfPeriod =
                    zeta < 1 ? Double.pi / (timing.spring.naturalFrequency * (1 - zeta * zeta).squareRoot()) : 0
                #expect(settle <= duration * (1 + 1e-6) && settle >= duration * (1 - 1e-6) - halfPeriod, "\(label)")
                // The closed form's coefficients carry ~ulp·ω₀ of error, divided by √|ζ² − 1| near
                // critical damping (1 + 1e-8: ω₀ = 1e10 gives 2e-3 out of 1e10).
                let conditioning = zeta == 1 ? 1 : min(1, abs(zeta * zeta - 1).squareRoot())
                let slack = 1e-12 * max(1, abs(velocity)) + 1e-15 * timing.spring.naturalFrequency / conditioning
                #expect(abs(timing.spring.velocity(at: 0) - velocity) < slack, "\(label)")
                #expect(abs(timing.value(at: duration * 0.999_999) - 1) <= Spring.settlingTolerance * 1.001, "\(label)")
                #expect(timing.value(at: duration) == 1)
            }
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
