import Foundation

/// A spring that lasts a given duration, as `UIView.animate(withDuration:delay:
/// usingSpringWithDamping:initialSpringVelocity:)` and `UISpringTimingParameters(dampingRatio:
/// initialVelocity:)` do.
///
/// UIKit does not document how it turns (ratio, duration) into a physical spring. Our mapping:
/// unit mass, damping ratio ζ as given, and the natural frequency ω₀ chosen so the spring
/// *settles* (stays within 0.1 % of the distance) exactly at `duration`. At `duration` the value
/// is snapped to exactly 1, as UIKit removes the animation and shows the model value; the snap is
/// at most 0.1 % of the distance.
public struct SpringTiming: Equatable, Hashable, Sendable {
    public let spring: Spring
    public let duration: Double

    /// - Parameters:
    ///   - dampingRatio: ζ > 0 (1 = no overshoot; < 1 oscillates; > 1 creeps).
    ///   - duration: seconds, > 0.
    ///   - initialVelocity: UIKit units: 1.0 = the whole distance in one second.
    public init(dampingRatio: Double, duration: Double, initialVelocity: Double = 0) {
        self.duration = duration
        self.spring = SpringTiming.fit(dampingRatio: dampingRatio, duration: duration, initialVelocity: initialVelocity)
    }

    /// Settling time scales as 1/ω₀ for a fixed *normalised* velocity v/ω₀, so a unit-frequency
    /// spring answers for every ω₀ when v = 0. With a velocity, bisect ω₀ on a log scale
    /// (settling time falls as ω₀ grows) until ω₀ is pinned to 1e-12 relative: 44 steps over the
    /// ±1e3 bracket, each a closed-form `settlingDuration` (about 20 µs per fit in all, at every
    /// damping and velocity; docs/PERFORMANCE.md, "Spring fit"). The steps are the first 44 of the
    /// former 60, so the fitted ω₀ is within 1e-12 of theirs.
    static func fit(dampingRatio zeta: Double, duration: Double, initialVelocity v: Double) -> Spring {
        func settling(_ omega0: Double) -> Double {
            Spring(dampingRatio: zeta, naturalFrequency: omega0, initialVelocity: v).settlingDuration()
        }
        let unit = Spring(dampingRatio: zeta, naturalFrequency: 1).settlingDuration()
        var omega0 = max(unit, 1e-6) / duration
        if v != 0 {
            var low = log(omega0 / 1e3)
            var high = log(omega0 * 1e3)
            for _ in 0..<fitSteps {
                let mid = (low + high) / 2
                if settling(exp(mid)) > duration { low = mid } else { high = mid }
            }
            omega0 = exp(high)
        }
        return Spring(dampingRatio: zeta, naturalFrequency: omega0, initialVelocity: v)
    }

    /// Bisection steps of `fit`: the bracket is ln(1e6) ≈ 13.8 wide, and 13.8 / 2⁴⁴ < 1e-12.
    static let fitSteps = 44

    /// The animated fraction at time t: 0 at t ≤ 0, exactly 1 from `duration` on.
    public func value(at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        return spring.value(at: t)
    }
}
