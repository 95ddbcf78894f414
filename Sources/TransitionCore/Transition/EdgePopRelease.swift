/// How the navigation controller's edge-swipe pop ends when the finger lifts
/// (docs/ENGINE.md, "System gestures").
///
/// Source: the decompile of iOS 26.1's UIKitCore (github.com/EthanArbuckle/
/// iPhone18-3_26.1_23B85_Restore), `_UINavigationInteractiveTransitionBase`:
/// - `popGesture:withRemainingDuration:shouldPopWithVelocity:` — with at least three samples
///   (`EdgePopStatistics`) it projects `p + v̄·T + ½·ā·T²` (T the transition's `duration` in
///   seconds, v̄ in progress/s, ā in progress/s²) and pops past `min(187.5 / width, 0.5)`, the
///   width being the gesture view's in points; the velocity it hands on is the last sample's.
///   With fewer, it pops when v̄ > 0 after a change, handing on the recognizer's velocity.
/// - `handleNavigationTransition:` (ended) — `completionSpeed = max(remaining, T·|v|/width)`
///   (v in pt/s; the remaining fraction alone when v = 0): the percent-driven completion of
///   `remaining · T / speed` seconds lasts T at most, less when the release outruns it
///   (`remaining · width / |v|`); then the timing curve becomes `UICubicTimingParameters` of
///   the controller's `completionCurve`.
/// Not modelled: the edge-flick velocity boost of the fluid transitions
/// (`_fluidParallaxTransitionsEnabledWithTraitCollection:`, an iOS 26 setting), and the older
/// procedure (`velocity ≥ 0` pops) taken when `_UINavigationControllerUseAugmentedPopGesture()`
/// is off — chosen: the augmented one. Tested in `EdgePopReleaseTests`.
public enum EdgePopRelease {
    /// The travel past which a projected release pops on a wide view (points).
    public static let popTravel = 187.5
    /// … and the fraction past which it pops on a narrow one.
    public static let halfway = 0.5
    /// Samples the projection needs; with fewer the direction decides.
    public static let projectedSamples = 3
    /// The completion curve. The decompile has the pop turn the percent-driven controller's
    /// `completionCurve` into `UICubicTimingParameters`, and `UIPercentDrivenInteractiveTransition
    /// init` set it to 7, a private `UIView.AnimationCurve` value whose control points it does
    /// not show. Chosen: ease-out, the public curve that decelerates into the end.
    public static let completionCurve = CompletionCurve.timing(.easeOut)

    /// The release's decision and the velocity it hands to the completion.
    public struct Decision: Equatable, Sendable {
        public var outcome: ReleaseDecision.Outcome
        public var reason: ReleaseDecision.Reason
        /// With the projection: the projected progress; nil when the direction decided.
        public var projected: Double?
        /// The velocity the completion takes (progress/s, positive toward popping).
        public var velocity: Double
    }

    /// The projected progress past which the pop finishes, for a view `width` points wide.
    public static func threshold(width: Double) -> Double { min(popTravel / width, halfway) }

    /// The pop's decision at `progress` with the pan's `statistics` (the release's sample
    /// included) and the recognizer's release `velocity` (progress/s); `duration`: the
    /// transition's (s); `width`: the gesture view's (pt).
    public static func decide(
        statistics: EdgePopStatistics, progress: Double, velocity: Double, duration: Double, width: Double
    ) -> Decision {
        guard statistics.sampleCount >= projectedSamples, statistics.changed else {
            let pops = statistics.averageVelocity > 0 && statistics.changed
            return Decision(outcome: pops ? .finish : .cancel, reason: .fling, projected: nil, velocity: velocity)
        }
        let t = duration
        let projected =
            progress + statistics.averageAcceleration * 0.5 * t * t + statistics.averageVelocity * t
        return Decision(
            outcome: projected > threshold(width: width) ? .finish : .cancel, reason: .projection,
            projected: projected, velocity: statistics.lastVelocity)
    }

    /// `max(remaining, T·|v|)` with v in progress/s (T·|v_pt|/width), within the engine's range
    /// (`TransitionConfiguration.completionSpeedRange`); `to`: 1 popping, 0 staying.
    public static func completionSpeed(progress: Double, velocity: Double, to: Double, duration: Double) -> Double {
        let remaining = abs(to - progress)
        let range = TransitionConfiguration.completionSpeedRange
        let speed = velocity == 0 ? remaining : max(remaining, duration * abs(velocity))
        return min(max(speed, range.lowerBound), range.upperBound)
    }
}
