/// What drives the transition's animations. Raw values are the wire names.
public enum TransitionDriver: String, Equatable, Hashable, Sendable, CaseIterable {
    /// `UIPercentDrivenInteractiveTransition` (the default): progress scrubs the timeline 1:1;
    /// a release completes it over remaining × duration / completionSpeed on completionCurve.
    case percentDriven = "percent-driven"
    /// An interruptible `UIViewPropertyAnimator` driving the same animators
    /// (`PropertyAnimatorSettings`): the pan sets `fractionComplete` on the paused animator, a
    /// release sets `isReversed` and calls `continueAnimation(withTimingParameters:durationFactor:)`,
    /// a touch during the run calls `pauseAnimation()`.
    case propertyAnimator = "property-animator"
}

/// The property animator's own settings (the wire's `propertyAnimator` object).
public struct PropertyAnimatorSettings: Equatable, Hashable, Sendable {
    /// The animator's timing curve (`UIViewPropertyAnimator(duration:curve:)` /
    /// `UICubicTimingParameters`): what the view follows while the animator runs, and while it
    /// is scrubbed unless `scrubsLinearly`. UIKit's own default is easeInOut.
    public var curve: TimingCurve = .easeInEaseOut
    /// `scrubsLinearly` (iOS 11, default true): a paused animator scrubbed through
    /// `fractionComplete` shows the animation at that fraction linearly; false: through `curve`.
    public var scrubsLinearly = true
    /// `continueAnimation(withTimingParameters:durationFactor:)`'s factor: the remaining run
    /// lasts durationFactor × duration; 0 (the default) uses the remaining duration,
    /// (1 − fractionComplete) × duration, or fractionComplete × duration when reversed.
    public var durationFactor = 0.0
    /// `pausesOnCompletion` (iOS 11, default false): at the end of its run the animator stays
    /// active and paused instead of calling its completion handler — the transition never
    /// completes by itself (`TransitionPhase.paused`); a pan scrubs it again.
    public var pausesOnCompletion = false

    public static let durationFactorRange = 0.0...10.0

    public init(
        curve: TimingCurve = .easeInEaseOut, scrubsLinearly: Bool = true, durationFactor: Double = 0,
        pausesOnCompletion: Bool = false
    ) {
        self.curve = curve
        self.scrubsLinearly = scrubsLinearly
        self.durationFactor = durationFactor
        self.pausesOnCompletion = pausesOnCompletion
    }

    /// What the view shows for a scrubbed `fractionComplete`, kept within 0…1 (a Bézier with
    /// y beyond 0…1 overshoots; the timeline has no picture past its ends).
    public func scrubbed(_ fraction: Double) -> Double {
        scrubsLinearly ? fraction : min(max(curve.value(at: fraction), 0), 1)
    }
}

/// The animator's state as `UIViewPropertyAnimator` reports it (`state`, `isRunning`,
/// `isReversed`, `fractionComplete`). `stopAnimation(_:)` is not modelled, so `.stopped` never
/// occurs and is left out.
public struct PropertyAnimatorState: Equatable, Hashable, Sendable {
    public enum State: String, Equatable, Hashable, Sendable {
        /// No animation: before the first pan, and once the completion handler has run.
        case inactive
        /// Animations in place, running or paused.
        case active
    }

    public var state: State = .inactive
    public var isRunning = false
    public var isReversed = false
    /// 0…1 of the animator's time, forward (a reversed run counts down). The engine keeps this
    /// internally; what the animator reports is `reportedFractionComplete`.
    public var fractionComplete = 0.0

    public init() {}

    /// `fractionComplete` as `UIViewPropertyAnimator` reads on iOS 11 and later: while
    /// `isReversed` it counts in the reversed direction, 1 − the forward time (setting
    /// `isReversed = true` flips the reading; a reversed run counts up). iOS 10 read the forward
    /// time, as `fractionComplete` here does. The frame's `animator.fractionComplete`.
    public var reportedFractionComplete: Double { isReversed ? 1 - fractionComplete : fractionComplete }
}
