/// What the engine decided when the pan was released, and why.
public struct ReleaseDecision: Equatable, Hashable, Sendable {
    public enum Outcome: String, Equatable, Hashable, Sendable {
        case finish, cancel
    }

    public enum Reason: String, Equatable, Hashable, Sendable {
        /// Progress compared with the threshold (REFERENCE §1).
        case threshold
        /// The release velocity passed `flingVelocity` and chose its own direction.
        case fling
        /// The projected rest point compared with the threshold (`ReleaseRule.projection`).
        case projection
    }

    public var outcome: Outcome
    public var reason: Reason
    /// Progress at release.
    public var progress: Double
    /// Velocity at release in progress per second (positive toward finishing).
    public var velocity: Double
    /// With `ReleaseRule.projection`: where the release would come to rest, in progress (may lie
    /// outside 0…1); nil with the threshold rule.
    public var projected: Double? = nil
}
