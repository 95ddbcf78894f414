/// The non-interactive part after release: one timeline from the release progress to 0 or 1.
struct Completion: Equatable, Sendable {
    enum Curve: Equatable, Sendable {
        case timing(TimingCurve)
        case spring(SpringTiming)
    }

    /// Engine time at release.
    let start: Double
    let from: Double
    let to: Double
    /// Seconds on the display link: |to − from| · duration / completionSpeed (`curveTime`),
    /// slowed by timeScale and capped (`TransitionConfiguration.displayDuration`).
    let duration: Double
    /// Seconds the curve lasts in its own (unslowed) time: the spring is fitted to it and read at
    /// elapsed × curveTime / duration = elapsed × timeScale, so a slowed spring keeps its shape
    /// and starts at timeScale × the release velocity on screen, as under a slowed layer; a
    /// capped spring is fitted to the cap × timeScale, so it settles sooner instead of starting
    /// faster (`CompletionCapTests.aCappedSpringKeepsItsStartVelocity`).
    let curveTime: Double
    let curve: Curve
    /// Seconds after `duration` during which the layers show their model values (the end
    /// state) before the completion is done: `Pitfall.negativeCompletionSpeed`'s flash; 0 else.
    var flash = 0.0
    /// The property animator's `fractionComplete` at the start: it runs linearly in time to `to`
    /// while the view (`progress(at:)`) follows the timing parameters from `from`. Equal to
    /// `from` for the percent-driven completions.
    var fractionFrom: Double

    /// Normalised spring velocities beyond this are clamped: a fling can ask for thousands of
    /// "remaining distances per second" when little remains, which no spring fit needs.
    static let maximumSpringVelocity = 100.0

    init(from: Double, to: Double, at time: Double, velocity: Double, configuration: TransitionConfiguration) {
        self.init(
            from: from, fraction: from, to: to, at: time, velocity: velocity,
            duration: abs(to - from) * configuration.duration / configuration.completionSpeed,
            configuration: configuration)
    }

    /// A property animator's `continueAnimation(withTimingParameters: completionCurve,
    /// durationFactor:)` from `fraction` (its time) with the view at `from`, toward `to`
    /// (`isReversed` when 0): durationFactor × duration, or the remaining duration when 0.
    init(
        animatorFrom from: Double, fraction: Double, to: Double, at time: Double, velocity: Double,
        configuration: TransitionConfiguration
    ) {
        let factor = configuration.propertyAnimator.durationFactor
        let remaining = abs(to - fraction) * configuration.duration
        self.init(
            from: from, fraction: fraction, to: to, at: time, velocity: velocity,
            duration: factor > 0 ? factor * configuration.duration : remaining, configuration: configuration)
    }

    private init(
        from: Double, fraction: Double, to: Double, at time: Double, velocity: Double, duration: Double,
        configuration: TransitionConfiguration
    ) {
        start = time
        self.from = from
        self.to = to
        fractionFrom = fraction
        let displayed = configuration.displayDuration(duration)
        self.duration = displayed
        switch configuration.completionCurve {
        case .timing(let timing):
            curveTime = duration
            curve = .timing(timing)
        case .spring:
            // Under the cap the same bits as before; capped, the curve's own time shrinks with it.
            let curveTime =
                displayed < duration / configuration.timeScale ? displayed * configuration.timeScale : duration
            self.curveTime = curveTime
            // UIKit units: 1.0 = the whole remaining distance per second, positive toward `to`.
            let normalised = to == from ? 0 : velocity / (to - from)
            let clamped = min(max(normalised, -Self.maximumSpringVelocity), Self.maximumSpringVelocity)
            curve = .spring(
                SpringTiming(
                    dampingRatio: configuration.completionDamping, duration: max(curveTime, 1e-9),
                    initialVelocity: clamped))
        }
    }

    /// A non-interactive run of the whole transition (UIKit without an interaction controller):
    /// the timeline advances linearly in time over the animator's duration, so every property
    /// follows its own animation curve. `completionSpeed` and `completionCurve` do not apply:
    /// they belong to the part after an interactive release.
    init(playingFrom from: Double, at time: Double, configuration: TransitionConfiguration) {
        start = time
        self.from = from
        to = 1
        fractionFrom = from
        curveTime = (1 - from) * configuration.duration
        duration = configuration.displayDuration(curveTime)
        curve = .timing(.linear)
    }

    /// Seed 000's cancel with `completionSpeed = -1` and the container layer's `beginTime` set
    /// to the release (`Pitfall.negativeCompletionSpeed`): the layer clock runs back at speed 1,
    /// so the timeline plays back linearly in time over `from × duration` — the configured
    /// completion curve and speed do not apply — then the model values flash.
    init(layerClockCancelFrom from: Double, at time: Double, configuration: TransitionConfiguration) {
        start = time
        self.from = from
        to = 0
        fractionFrom = from
        curveTime = from * configuration.duration
        duration = configuration.displayDuration(curveTime)
        curve = .timing(.linear)
        // One refresh whatever timeScale: the flash lasts until the completion handler runs on
        // the next run-loop turn, which is not animation time, so a slowed layer tree does not
        // lengthen it (the timeline steps to it: `TimeScaleTests.playAndFlash`).
        flash = Pitfall.modelValueFlash
    }

    /// The property animator's `fractionComplete`: linear in time from `fractionFrom` to `to`.
    func fractionComplete(at time: Double) -> Double {
        if time - start >= duration { return to }
        let elapsed = max(time - start, 0)
        return fractionFrom + (to - fractionFrom) * (elapsed / duration)
    }

    func isDone(at time: Double) -> Bool { time - start >= duration + flash }

    /// True while the layers show their model values (after `duration`, within `flash`).
    func isFlashing(at time: Double) -> Bool { flash > 0 && time - start >= duration && !isDone(at: time) }

    /// Progress at `time`, kept within 0…1 (a spring may overshoot; the timeline cannot).
    func progress(at time: Double) -> Double {
        if isDone(at: time) || time - start >= duration { return to }
        let elapsed = max(time - start, 0)
        let fraction: Double
        switch curve {
        case .timing(let timing): fraction = timing.value(at: elapsed / duration)
        case .spring(let spring):
            // At 1× and under the cap the display time is the spring's own (the same bits).
            fraction = spring.value(at: duration == curveTime ? elapsed : elapsed * (curveTime / duration))
        }
        return min(max(from + (to - from) * fraction, 0), 1)
    }
}
