/// How a release decides between finishing and cancelling when no fling decides first.
/// Raw values are the wire names.
public enum ReleaseRule: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Progress at release against `threshold` (REFERENCE §1, the seed's rule).
    case threshold
    /// Where the release would come to rest if it kept decelerating, against `threshold`
    /// (WWDC 2018 "Designing Fluid Interfaces": project the release, snap to the nearest end).
    case projection

    /// `UIScrollView.DecelerationRate.normal`: the fraction of the velocity kept per millisecond.
    public static let normalDecelerationRate = 0.998
    /// `UIScrollView.DecelerationRate.fast`.
    public static let fastDecelerationRate = 0.99

    /// The distance a motion at `velocity` (per second) travels while it decelerates to rest,
    /// keeping the fraction `decelerationRate` of its velocity every millisecond — WWDC 2018
    /// "Designing Fluid Interfaces" (session 803):
    ///
    ///     func project(initialVelocity: CGFloat, decelerationRate: CGFloat) -> CGFloat {
    ///         return (initialVelocity / 1000.0) * decelerationRate / (1.0 - decelerationRate)
    ///     }
    ///
    /// Derivation: per millisecond the motion moves v/1000 (velocity per ms), and each
    /// millisecond's velocity is r times the previous one, so the distance is
    /// (v/1000)·(r + r² + r³ + …) = (v/1000)·r/(1 − r). The unit is the velocity's unit times
    /// a second: pt/s gives points, progress/s gives progress. r = 0.998 multiplies v by
    /// 0.499 s, r = 0.99 by 0.099 s.
    public static func projectedDistance(velocity: Double, decelerationRate r: Double) -> Double {
        (velocity / 1000) * r / (1 - r)
    }
}
