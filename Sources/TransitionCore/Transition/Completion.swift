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
    /// Seconds: |to − from| · duration / completionSpeed.
    let duration: Double
    let curve: Curve
    /// Seconds after `duration` during which the layers show their model values (the end
    /// state) before the completion is done: `Pitfall.negativeCompletionSpeed`'s flash; 0 else.
    var flash = 0.0

    /// Normalised spring velocities beyond this are clamped: a fling can ask for thousands of
    /// "remaining distances per second" when little remains, which no spring fit needs.
    static let maximumSpringVelocity = 100.0

    init(from: Double, to: Double, at time: Double, velocity: Double, configuration: TransitionConfiguration) {
        start = time
        self.from = from
        self.to = to
        duration = abs(to - from) * configuration.duration / configuration.completionSpeed
        switch configuration.completionCurve {
        case .timing(let timing):
            curve = .timing(timing)
        case .spring:
            // UIKit units: 1.0 = the whole remaining distance per second, positive toward `to`.
            let normalised = to == from ? 0 : velocity / (to - from)
            let clamped = min(max(normalised, -Self.maximumSpringVelocity), Self.maximumSpringVelocity)
            curve = .spring(
                SpringTiming(
                    dampingRatio: configuration.completionDamping, duration: max(duration, 1e-9),
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
        duration = (1 - from) * configuration.duration
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
        duration = from * configuration.duration
        curve = .timing(.linear)
        flash = Pitfall.modelValueFlash
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
        case .spring(let spring): fraction = spring.value(at: elapsed)
        }
        return min(max(from + (to - from) * fraction, 0), 1)
    }
}
