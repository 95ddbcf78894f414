/// Rubber-banding past the clamp's limits instead of a hard stop: `UIScrollView`'s formula
/// for content dragged past its edge (Grant Paul's reverse-engineering of the bounce),
///
///     offset = (1 − 1 / (x·c/d + 1))·d
///
/// with x the distance the finger went past the edge, d the scroll view's dimension along the
/// drag and c the constant (iOS about 0.55). The offset starts at 0 with slope c (continuous at
/// the edge), grows monotonically and never reaches d.
///
/// The engine measures both in progress: d is the container's extent along the pan divided by
/// `distance` (UIScrollView's meaning of d, in progress units). The result is then kept within
/// 0…1, since the timeline has no picture beyond its ends: a stretch that would pass an end
/// stops there, and a limit on an end itself (clamp [0, 1]) stops there too.
public struct RubberBand: Equatable, Hashable, Sendable {
    /// 0 < c ≤ 1: the slope at the edge, the fraction of the finger's movement the band follows
    /// there. Larger is looser, smaller is stiffer (1: 1:1 at the edge).
    public let constant: Double

    /// iOS's scroll views (about 0.55).
    public static let scrollViewConstant = 0.55
    /// The constants a configuration accepts (0 excluded: a band with no give; above 1 the band
    /// would move faster than the finger at the edge).
    public static let constantRange = 0.0...1.0

    public init(constant: Double) {
        self.constant = constant
    }

    /// How far the stretched value moves when the finger is `overshoot` (≥ 0) past the edge,
    /// with `dimension` (> 0) the scroll view's dimension along the drag; 0 when there is none.
    public func offset(overshoot x: Double, dimension d: Double) -> Double {
        guard d > 0, x > 0 else { return 0 }
        return (1 - 1 / (x * constant / d + 1)) * d
    }

    /// `raw` kept within lower…upper 1:1 and stretched beyond with dimension `d` (progress
    /// units: the container's extent along the pan / distance), never past 0 or 1.
    public func limit(_ raw: Double, lower: Double, upper: Double, dimension d: Double) -> Double {
        if raw > upper { return min(upper + offset(overshoot: raw - upper, dimension: d), 1) }
        if raw < lower { return max(lower - offset(overshoot: lower - raw, dimension: d), 0) }
        return raw
    }
}
