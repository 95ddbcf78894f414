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

    @Test("UIKit-style springs settle exactly at their duration and end on exactly 1",
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
}
