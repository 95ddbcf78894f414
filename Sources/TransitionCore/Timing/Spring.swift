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

    /// An upper bound of |displacement| from time t on; decreasing in t. Only the reference
    /// stepper in the tests uses it now (`SpringTests.steppedSettlingDuration`).
    func envelope(at t: Double) -> Double {
        switch regime {
        case let .under(decay, _, a, b): return exp(-decay * t) * (abs(a) + abs(b))
        case let .critical(omega, a, b): return (abs(a) + abs(b) * t) * exp(-omega * t)
        case let .over(r1, r2, c1, c2): return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }
    }

    /// The default settling tolerance: within 0.1 % of the distance.
    public static let settlingTolerance = 1e-3

    /// Springs that have not settled by ω₀·t = 1e6 (ζ below ~1e-5, or ζ above ~1e5) are taken
    /// as settled there, as the former stepper gave up there.
    static let settlingHorizon = 1e6

    /// The time after which the displacement stays within `tolerance` of the distance for good:
    /// the last time |displacement| falls to `tolerance`, to a few ulps.
    ///
    /// Closed form plus a bracketed root, in a bounded number of evaluations (9–28 measured) for
    /// every damping ratio and velocity. The displacement is monotone between consecutive
    /// extrema, so the last crossing lies on the piece that starts at the last extremum (or t = 0)
    /// still outside the tolerance and ends at the next zero (or extremum, or ∞):
    /// - under-damped, x = R·e^(−σt)·cos(ω_d·t − φ): the extrema, π/ω_d apart, have
    ///   |x| = R·(ω_d/ω₀)·e^(−σt), so the last one outside follows from a logarithm;
    /// - critically and over-damped: at most one extremum and one zero for t > 0, both in
    ///   closed form; after the last of them |x| decreases to 0.
    /// (A stepper at 1/(40·ω₀) took up to ~18,000 steps at ζ = 0.05 or 10; the tests keep it as
    /// the reference this must match.)
    public func settlingDuration(tolerance: Double = Spring.settlingTolerance) -> Double {
        let horizon = Self.settlingHorizon / naturalFrequency
        func outside(_ t: Double) -> Bool { abs(displacement(at: t)) > tolerance }
        switch regime {
        case let .under(decay, omega, a, b):
            let amplitude = (a * a + b * b).squareRoot()
            let phi = atan2(b, a)  // x = R·e^(−σt)·cos(ω_d·t − φ)
            let psi = atan2(decay, omega)  // extrema where ω_d·t − φ + ψ = kπ
            func extremum(_ k: Double) -> Double { (k * .pi + phi - psi) / omega }
            // The extrema outside the tolerance are those before `last`.
            var last = log(amplitude * omega / ((decay * decay + omega * omega).squareRoot() * tolerance)) / decay
            if !(last <= horizon) { last = horizon }
            let first = ((psi - phi) / .pi).rounded(.down) + 1  // the first extremum after t = 0
            var k = ((last * omega - phi + psi) / .pi).rounded(.down)
            // Rounding may put the boundary one extremum off either way: decide by evaluating.
            var nudges = 0
            while nudges < 4 && k + 1 >= first && extremum(k + 1) <= horizon && outside(extremum(k + 1)) {
                k += 1
                nudges += 1
            }
            while nudges < 8 && k >= first && !outside(extremum(k)) {
                k -= 1
                nudges += 1
            }
            var start: Double
            if k >= first && outside(extremum(k)) {
                start = extremum(k)
            } else {
                guard outside(0) else { return 0 }
                start = 0
                k = first - 1  // the extremum at or before t = 0
            }
            start = max(start, 0)
            // |x| falls monotonically from `start` to the next zero, ω_d·t − φ = kπ + π/2.
            var zero = (k * .pi + .pi / 2 + phi) / omega
            if !(zero > start) {  // rounding at t = 0: the first zero after `start`
                let m = ((start * omega - phi - .pi / 2) / .pi).rounded(.down) + 1
                zero = (m * .pi + .pi / 2 + phi) / omega
            }
            if !(zero > start) { return start }
            return crossing(outside: start, inside: zero, tolerance: tolerance)
        case let .critical(omega, a, b):
            // x = (a + b·t)·e^(−ω₀t): extremum at 1/ω₀ − a/b, zero at −a/b.
            let (p, q) = b == 0 ? (Double.nan, Double.nan) : (1 / omega - a / b, -a / b)
            return lastCrossing(after: p, q, slowestRate: omega, horizon: horizon, tolerance: tolerance)
        case let .over(r1, r2, c1, c2):
            // x = c₁·e^(r₁t) + c₂·e^(r₂t): zero where e^((r₁−r₂)t) = −c₂/c₁, extremum where it is
            // −c₂·r₂/(c₁·r₁).
            let gap = r1 - r2
            let (p, q) = c1 == 0 ? (Double.nan, Double.nan) : (log(-c2 / c1) / gap, log(-c2 * r2 / (c1 * r1)) / gap)
            return lastCrossing(after: p, q, slowestRate: -r1, horizon: horizon, tolerance: tolerance)
        }
    }

    /// For a displacement with at most the extremum and zero `p`, `q` after t = 0 (NaN or ≤ 0:
    /// none): |x| is monotone between them, so the last crossing is on the piece after the last of
    /// {0, p, q} still outside the tolerance. After the last of them |x| falls to 0; that piece's
    /// inside end is found by doubling from the slowest exponential's time scale (a few steps).
    private func lastCrossing(after p: Double, _ q: Double, slowestRate: Double, horizon: Double, tolerance: Double)
        -> Double
    {
        func outside(_ t: Double) -> Bool { abs(displacement(at: t)) > tolerance }
        let first = p > 0 && p < horizon ? p : .nan
        let second = q > 0 && q < horizon ? q : .nan
        var points = (0.0, Double.nan, Double.nan)
        switch (first.isNaN, second.isNaN) {
        case (true, true): break
        case (false, true): points.1 = first
        case (true, false): points.1 = second
        case (false, false): points = (0, Swift.min(first, second), Swift.max(first, second))
        }
        var start = Double.nan
        var end = Double.nan
        if !points.2.isNaN && outside(points.2) {
            start = points.2
        } else if !points.1.isNaN && outside(points.1) {
            start = points.1
            end = points.2
        } else if outside(0) {
            start = 0
            end = points.1
        } else {
            return 0
        }
        if end.isNaN {
            var step = 1 / slowestRate
            end = start + step
            var doublings = 0
            while doublings < 64 && end < horizon && outside(end) {
                step *= 2
                end = start + step
                doublings += 1
            }
            if !(end < horizon) {
                end = horizon
                if outside(end) { return horizon }
            }
        }
        return crossing(outside: start, inside: end, tolerance: tolerance)
    }

    /// x and dx/dt at t (one exp, cos and sin), for Newton's steps.
    private func displacementAndSlope(at t: Double) -> (x: Double, slope: Double) {
        (displacement(at: t), -velocity(at: t))
    }

    /// The time in [outside, inside] where |displacement| falls to `tolerance`, given that it falls
    /// monotonically there from above the tolerance to at most the tolerance: Newton's method kept
    /// in the bracket, bisecting whenever a step would leave it or not halve the error
    /// (`rtsafe`), then the first float inside the tolerance next to the root (as the former
    /// 50-step bisection gave). Typically 6–10 evaluations.
    private func crossing(outside: Double, inside: Double, tolerance: Double) -> Double {
        var low = outside  // g > 0
        var high = inside  // g ≤ 0
        var dxOld = high - low
        var dx = dxOld
        var t = low + (high - low) / 2
        func g(_ t: Double) -> (value: Double, slope: Double) {
            let (x, slope) = displacementAndSlope(at: t)
            return (abs(x) - tolerance, x < 0 ? -slope : slope)
        }
        var (value, slope) = g(t)
        for _ in 0..<128 {
            if value > 0 { low = t } else { high = t }
            let newtonLeaves = ((t - high) * slope - value) * ((t - low) * slope - value) > 0
            if newtonLeaves || !(abs(2 * value) <= abs(dxOld * slope)) {
                dxOld = dx
                dx = (high - low) / 2
                t = low + dx
            } else {
                dxOld = dx
                dx = value / slope
                t -= dx
            }
            if !(abs(dx) > 2 * t.ulp) || !(high - low > 2 * high.ulp) { break }
            (value, slope) = g(t)
        }
        t = Swift.min(Swift.max(t, low), high)
        // The first float inside, within a few ulps of the root.
        func isOutside(_ t: Double) -> Bool { abs(displacement(at: t)) > tolerance }
        if isOutside(t) {
            for _ in 0..<16 {
                t = t.nextUp
                if t >= high || !isOutside(t) { break }
            }
            return t < high ? t : high
        }
        for _ in 0..<16 {
            let before = t.nextDown
            if before <= low || isOutside(before) { break }
            t = before
        }
        return t
    }
}
