/// Rubber-banding past the clamp's limits instead of a hard stop: `UIScrollView`'s formula
/// for content dragged past its edge,
///
///     offset = (1 − 1 / (x·c/d + 1))·d
///
/// with x the distance the finger went past the edge, d the room there is to stretch into and
/// c the stiffness constant (iOS about 0.55). The offset starts at 0 with slope c (continuous at
/// the edge), grows monotonically and never reaches d.
///
/// The engine measures both in progress: past `clampUpper` the room is 1 − upper, below
/// `clampLower` it is lower, so progress stretches toward the transition's ends and never
/// leaves 0…1 (the timeline has no picture beyond them). A limit at the end itself (clamp
/// [0, 1]) leaves no room: a hard stop there.
public struct RubberBand: Equatable, Hashable, Sendable {
    /// c > 0: the slope at the edge; larger is stiffer near the limit's room.
    public let constant: Double

    /// iOS's scroll views (about 0.55).
    public static let scrollViewConstant = 0.55
    /// The constants a configuration accepts (0 excluded: a band with no give).
    public static let constantRange = 0.0...10.0

    public init(constant: Double) {
        self.constant = constant
    }

    /// How far the stretched value moves when the finger is `overshoot` (≥ 0) past the edge
    /// with `room` (≥ 0) to stretch into; 0 when there is no room.
    public func offset(overshoot x: Double, room d: Double) -> Double {
        guard d > 0, x > 0 else { return 0 }
        return (1 - 1 / (x * constant / d + 1)) * d
    }

    /// `raw` kept within lower…upper 1:1 and stretched beyond, toward 0 and 1.
    public func limit(_ raw: Double, lower: Double, upper: Double) -> Double {
        if raw > upper { return min(upper + offset(overshoot: raw - upper, room: 1 - upper), 1) }
        if raw < lower { return max(lower - offset(overshoot: lower - raw, room: lower), 0) }
        return raw
    }
}
