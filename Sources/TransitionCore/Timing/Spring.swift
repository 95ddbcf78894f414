import Foundation

/// A damped harmonic oscillator moving a value from 0 to 1 (the whole animated distance),
/// solved in closed form: `m·x'' + c·x' + k·x = 0` for the displacement `x = 1 − value`.
///
/// `initialVelocity` is in distances per second toward the target (`CASpringAnimation`,
/// UIKit's `initialSpringVelocity`): 1.0 covers the whole distance in one second.
public struct Spring: Equatable, Hashable, Sendable {
    public let mass: Double
    public let stiffness: Double
    public let damping: Double
    public let initialVelocity: Double

    /// ζ = c / (2·√(k·m)).
    public let dampingRatio: Double
    /// ω₀ = √(k/m), rad/s.
    public let naturalFrequency: Double

    private enum Regime: Equatable, Hashable, Sendable {
        /// e^(−ζω₀t)·(A·cos ω_d t + B·sin ω_d t)
        case under(decay: Double, omega: Double, a: Double, b: Double)
        /// (A + B·t)·e^(−ω₀t)
        case critical(omega: Double, a: Double, b: Double)
        /// C₁·e^(r₁t) + C₂·e^(r₂t)
        case over(r1: Double, r2: Double, c1: Double, c2: Double)
    }
    private let regime: Regime

    /// A physical spring. Requires mass, stiffness > 0 and damping ≥ 0 (checked by callers that
    /// take user input; see `TransitionConfiguration`).
    public init(mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        let omega0 = (stiffness / mass).squareRoot()
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        naturalFrequency = omega0
        dampingRatio = zeta
        let x0 = 1.0
        let v0 = -initialVelocity  // displacement shrinks when moving toward the target
        if abs(zeta - 1) < 1e-9 {
            regime = .critical(omega: omega0, a: x0, b: v0 + omega0 * x0)
        } else if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            regime = .under(decay: zeta * omega0, omega: omegaD, a: x0, b: (zeta * omega0 * x0 + v0) / omegaD)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega0 * (zeta - root)  // the slow root
            let r2 = -omega0 * (zeta + root)
            let c2 = (v0 - r1 * x0) / (r2 - r1)
            regime = .over(r1: r1, r2: r2, c1: x0 - c2, c2: c2)
        }
    }

    /// `CASpringAnimation`'s defaults: mass 1, stiffness 100, damping 10, velocity 0.
    public static let coreAnimationDefault = Spring(mass: 1, stiffness: 100, damping: 10)
    /// `UISpringTimingParameters()`: mass 3, stiffness 1000, damping 500 (ζ ≈ 4.56).
    public static let uiKitDefault = Spring(mass: 3, stiffness: 1000, damping: 500)

    /// SwiftUI's response / dampingFraction: k = (2π/response)²·m, c = 4π·ζ·m/response.
    public init(response: Double, dampingFraction: Double, mass: Double = 1, initialVelocity: Double = 0) {
        let stiffness = pow(2 * Double.pi / response, 2) * mass
        let damping = 4 * Double.pi * dampingFraction * mass / response
        self.init(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
    }

    /// A spring of ratio ζ and natural frequency ω₀ with unit mass.
    public init(dampingRatio: Double, naturalFrequency omega0: Double, initialVelocity: Double = 0) {
        self.init(
            mass: 1, stiffness: omega0 * omega0, damping: 2 * dampingRatio * omega0,
            initialVelocity: initialVelocity)
    }

    /// Displacement from the target at time t (1 at t = 0, → 0).
    public func displacement(at t: Double) -> Double {
        switch regime {
        case let .under(decay, omega, a, b):
            return exp(-decay * t) * (a * cos(omega * t) + b * sin(omega * t))
        case let .critical(omega, a, b):
            return (a + b * t) * exp(-omega * t)
        case let .over(r1, r2, c1, c2):
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
    }

    /// The animated fraction at time t: 0 at t = 0, settling at 1 (may overshoot).
    public func value(at t: Double) -> Double { 1 - displacement(at: t) }

    /// d(value)/dt at time t, in distances per second.
    public func velocity(at t: Double) -> Double {
        switch regime {
        case let .under(decay, omega, a, b):
            let e = exp(-decay * t)
            let c = cos(omega * t)
            let s = sin(omega * t)
            return -(e * ((b * omega - decay * a) * c - (a * omega + decay * b) * s))
        case let .critical(omega, a, b):
            return -((b - omega * (a + b * t)) * exp(-omega * t))
        case let .over(r1, r2, c1, c2):
            return -(c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t))
        }
    }

    /// An upper bound of |displacement| from time t on; decreasing in t.
    private func envelope(at t: Double) -> Double {
        switch regime {
        case let .under(decay, _, a, b): return exp(-decay * t) * (abs(a) + abs(b))
        case let .critical(omega, a, b): return (abs(a) + abs(b) * t) * exp(-omega * t)
        case let .over(r1, r2, c1, c2): return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }
    }

    /// The default settling tolerance: within 0.1 % of the distance.
    public static let settlingTolerance = 1e-3

    /// The time after which the displacement stays within `tolerance` of the distance for good.
    /// Found by stepping at 1/(40·ω₀) until the envelope is below the tolerance, then refining
    /// the last crossing by bisection.
    public func settlingDuration(tolerance: Double = Spring.settlingTolerance) -> Double {
        let step = 1 / (40 * naturalFrequency)
        var lastOutside = -1.0
        var t = 0.0
        // The critical envelope (|a| + |b|·t)·e^(−ω₀t) first grows, so only stop once past its peak.
        while envelope(at: t) >= tolerance || t * naturalFrequency < 2 {
            if abs(displacement(at: t)) > tolerance { lastOutside = t }
            t += step
            if t * naturalFrequency > 1e6 { break }  // a physically meaningless spring; give up
        }
        if lastOutside < 0 { return 0 }
        var low = lastOutside
        var high = lastOutside + step
        for _ in 0..<50 {
            let mid = (low + high) / 2
            if abs(displacement(at: mid)) > tolerance { low = mid } else { high = mid }
        }
        return high
    }
}
