/// Every setting of one interactive transition, as a value. Build one, then call `validate()`
/// (the engine refuses an invalid one): each field has a documented range and an invalid value
/// is an error naming the field — never a crash, never a silent clamp.
public struct TransitionConfiguration: Equatable, Hashable, Sendable {
    public var kind: TransitionKind
    public var operation: TransitionOperation = .present
    /// Seconds the whole transition takes when played without interaction.
    public var duration: Double
    /// Points of pan that make progress 1 (REFERENCE §1: 200).
    public var distance: Double = 200
    /// Slop, axis and direction of the pan.
    public var pan = PanSettings()
    /// Progress is kept within lower…upper while tracking (REFERENCE §1: 0.01…0.99).
    public var clampLower: Double = 0.01
    public var clampUpper: Double = 0.99
    /// Release below this progress cancels, at or above it finishes.
    public var threshold: Double = 0.5
    /// > 0; finishing takes (1 − p)·duration/speed, cancelling p·duration/speed.
    public var completionSpeed: Double = 1
    public var completionCurve: CompletionCurve = .timing(.easeInEaseOut)
    /// Damping ratio of the pop animator's spring (seed: 0.4).
    public var springDamping: Double = 0.4
    /// Damping ratio of the `spring` completion curve, its own (not the pop animator's).
    /// 1: critically damped, no overshoot.
    public var completionDamping: Double = 1
    /// The pop spring's `initialSpringVelocity` (UIKit units: 1.0 = the whole distance per second).
    public var springInitialVelocity: Double = 0
    /// A release faster than this along the pan axis (pt/s) finishes or cancels in its own
    /// direction, whatever the progress (Flutter/Compose style). Nil: the threshold alone decides.
    public var flingVelocity: Double?
    /// What decides a release the fling does not: the threshold, or the projection.
    public var releaseRule: ReleaseRule = .threshold
    /// The projection's deceleration rate r, 0 < r < 1: the fraction of the velocity kept per
    /// millisecond (`UIScrollView.DecelerationRate.normal` 0.998, `.fast` 0.99).
    public var decelerationRate: Double = ReleaseRule.normalDecelerationRate
    /// The pan is UIKit's own gesture (a scene's edge-swipe pop or sheet swipe-down): its
    /// release follows `EdgePopRelease` or `SheetSwipeRelease` — the fling, `releaseRule`,
    /// `threshold` and `completionSpeed` are the app's and do not apply. Set by a scene; not a
    /// wire setting. Nil: the app's own pan.
    public var systemGesture: SystemGesture?
    /// Rubber-banding past the clamp's limits with this constant c, 0 < c ≤ 1 (the slope at the
    /// edge: smaller is stiffer); nil: the hard clamp.
    public var rubberBand: Double?
    /// The seeds' mistakes, reproduced on purpose (`Pitfall`); empty by default.
    public var pitfalls: Set<Pitfall> = []
    /// What drives the animations: the percent-driven transition or a property animator.
    public var driver: TransitionDriver = .percentDriven
    /// The property animator's settings (used with `driver == .propertyAnimator`).
    public var propertyAnimator = PropertyAnimatorSettings()
    /// The screen the transition plays in, in points.
    public var container = Size(width: 390, height: 844)
    /// The tapped thumbnail's frame for the pop animator. Nil: the default thumbnail
    /// (`defaultOriginFrame(in:)`), so the view never grows out of the top-left corner.
    public var originFrame: Rect?
    /// The device's long axis runs across the screen (a landscape interface): the flip turns
    /// about it, the screen's horizontal axis (seed 003), instead of the vertical one. Set by a
    /// scene from its interface orientation; not a wire setting.
    public var longAxisHorizontal = false
    /// Slow animations: completions run at this fraction of real time on the display link
    /// (1: real time; 0.1: ten times as long), within `timeScaleRange`. Only what runs by
    /// itself slows — the pan tracks the finger and the release decides exactly as at 1
    /// (`TimeScaleTests`).
    public var timeScale = 1.0

    public init(kind: TransitionKind = .pop) {
        self.kind = kind
        self.duration = kind.defaultDuration
    }

    /// The second thumbnail of the demo's bottom strip: 120 × 160 pt, 12 pt apart, 16 pt from
    /// the left edge, 40 pt above the bottom.
    public static func defaultOriginFrame(in container: Size) -> Rect {
        Rect(x: 16 + 120 + 12, y: container.height - 40 - 160, width: 120, height: 160)
    }

    /// The origin frame in force.
    public var effectiveOriginFrame: Rect { originFrame ?? Self.defaultOriginFrame(in: container) }

    // The documented ranges, one place for the checks and the messages.
    public static let durationRange = 0.01...60.0
    public static let distanceRange = 1.0...10_000.0
    public static let slopRange = 0.0...100.0
    public static let completionSpeedRange = 0.01...100.0
    public static let springDampingRange = 0.05...10.0
    public static let springVelocityRange = -100.0...100.0
    public static let flingVelocityRange = 1.0...100_000.0
    public static let containerRange = 100.0...4_000.0
    public static let timeScaleRange = 0.05...1.0
    /// The longest a completion (or a play) may run on the display link, in seconds, whatever
    /// the duration, speed, durationFactor and timeScale: a longer one is played faster, its
    /// curve compressed into this (`CompletionCapTests`). The longest `duration` itself, so a
    /// completion never ticks longer than the longest play at 1× (docs/ENGINE.md).
    public static let longestCompletion = 60.0

    /// How long a completion whose curve lasts `curveDuration` seconds at 1× runs on the
    /// display link: slowed by `timeScale`, at most `longestCompletion`.
    public func displayDuration(_ curveDuration: Double) -> Double {
        min(curveDuration / timeScale, Self.longestCompletion)
    }

    /// The longest the engine can stay finishing or cancelling, in seconds, from the release (or
    /// `play`) on: a release's completion covers the remaining fraction (at most 1) in
    /// `remaining × duration / completionSpeed`; a play lasts `duration`; either slowed by
    /// `timeScale` and at most `longestCompletion` (`displayDuration`).
    /// `Pitfall.negativeCompletionSpeed`'s cancel lasts p × duration (as displayed) plus its
    /// flash (one refresh, 1/60 s, not slowed), whatever completionSpeed.
    public var longestAnimation: Double {
        if driver == .propertyAnimator {
            // continueAnimation: durationFactor × duration, or the remaining duration (≤ duration).
            return displayDuration(duration * max(propertyAnimator.durationFactor, 1))
        }
        let completion = displayDuration(duration / min(completionSpeed, 1))
        guard pitfalls.contains(.negativeCompletionSpeed) else { return completion }
        return max(completion, displayDuration(duration) + Pitfall.modelValueFlash)
    }
    /// `longestAnimation` over every valid configuration: the cap, 60 s, plus the pitfall's
    /// flash (1/60 s).
    public static let longestPossibleAnimation = longestCompletion + Pitfall.modelValueFlash

    public func validate() throws(ConfigurationError) {
        try Self.check("duration", duration, in: Self.durationRange, unit: " seconds")
        try Self.check("distance", distance, in: Self.distanceRange, unit: " pt")
        try Self.check("slop", pan.slop, in: Self.slopRange, unit: " pt")
        guard clampLower.isFinite, clampUpper.isFinite, clampLower >= 0, clampUpper <= 1, clampLower < clampUpper
        else {
            throw ConfigurationError(
                field: "clamp", allowed: "[lower, upper] with 0 ≤ lower < upper ≤ 1",
                got: "[\(clampLower), \(clampUpper)]")
        }
        guard threshold.isFinite, threshold > 0, threshold < 1 else {
            throw ConfigurationError(field: "threshold", allowed: "a number in (0, 1)", got: "\(threshold)")
        }
        try Self.check("completionSpeed", completionSpeed, in: Self.completionSpeedRange, unit: "")
        try Self.check("spring.damping", springDamping, in: Self.springDampingRange, unit: "")
        try Self.check("spring.initialVelocity", springInitialVelocity, in: Self.springVelocityRange, unit: "")
        try Self.check("completionDamping", completionDamping, in: Self.springDampingRange, unit: "")
        guard decelerationRate.isFinite, decelerationRate > 0, decelerationRate < 1 else {
            throw ConfigurationError(
                field: "decelerationRate", allowed: "a number in (0, 1) (normal 0.998, fast 0.99)",
                got: "\(decelerationRate)")
        }
        let factor = propertyAnimator.durationFactor
        guard factor.isFinite, PropertyAnimatorSettings.durationFactorRange.contains(factor) else {
            throw ConfigurationError(
                field: "propertyAnimator.durationFactor", allowed: "a number in [0, 10] (0: the remaining duration)",
                got: "\(factor)")
        }
        if case .cubicBezier(let b) = propertyAnimator.curve,
            !((0...1).contains(b.x1) && (0...1).contains(b.x2) && (-5...5).contains(b.y1) && (-5...5).contains(b.y2))
        {
            throw ConfigurationError(
                field: "propertyAnimator.curve",
                allowed: "a named curve or [x1, y1, x2, y2] with x in [0, 1], y in [-5, 5]",
                got: "[\(b.x1), \(b.y1), \(b.x2), \(b.y2)]")
        }
        if let rubberBand {
            guard rubberBand.isFinite, rubberBand > RubberBand.constantRange.lowerBound,
                rubberBand <= RubberBand.constantRange.upperBound
            else {
                throw ConfigurationError(
                    field: "rubberBand",
                    allowed:
                        "null or a number in (0, \(RubberBand.constantRange.upperBound)] (iOS 0.55; smaller is stiffer)",
                    got: "\(rubberBand)")
            }
        }
        if let flingVelocity {
            try Self.check("flingVelocity", flingVelocity, in: Self.flingVelocityRange, unit: " pt/s")
        }
        try Self.check("timeScale", timeScale, in: Self.timeScaleRange, unit: "")
        try Self.check("container.width", container.width, in: Self.containerRange, unit: " pt")
        try Self.check("container.height", container.height, in: Self.containerRange, unit: " pt")
        if let originFrame {
            let bounds = Rect(origin: .zero, size: container)
            let finite = [originFrame.minX, originFrame.minY, originFrame.width, originFrame.height]
                .allSatisfy(\.isFinite)
            guard finite, originFrame.width >= 1, originFrame.height >= 1, bounds.contains(originFrame) else {
                throw ConfigurationError(
                    field: "originFrame",
                    allowed:
                        "[x, y, width, height] with width, height ≥ 1 inside the \(container.width) × \(container.height) container",
                    got: "[\(originFrame.minX), \(originFrame.minY), \(originFrame.width), \(originFrame.height)]")
            }
        }
    }

    private static func check(
        _ field: String, _ value: Double, in range: ClosedRange<Double>, unit: String
    ) throws(ConfigurationError) {
        guard value.isFinite, range.contains(value) else {
            throw ConfigurationError(
                field: field, allowed: "a number in [\(range.lowerBound), \(range.upperBound)]\(unit)", got: "\(value)")
        }
    }
}
