/// Progress: what the pan shows — the tracked fraction, the gesture's axis, rubber-banding and
/// the property animator's scrubbing.
extension InteractiveTransition {
    /// The property animator's `fractionComplete = fraction` on the paused animator (created
    /// and paused when the pan begins): returns what the view shows. Percent-driven: unchanged.
    mutating func scrub(_ fraction: Double) -> Double {
        guard var state = animatorState else { return fraction }
        if state.state == .inactive { state = PropertyAnimatorState() }  // a new animator per transition
        state.state = .active
        state.isRunning = false
        state.fractionComplete = fraction
        animatorState = state
        return configuration.propertyAnimator.scrubbed(fraction)
    }

    /// The axis direction a fresh pan follows: along the configured axis, signed by the
    /// configured direction or, for `both`, by where the pointer went.
    func initialAxis() -> Point {
        let t = recognizer.translation
        switch configuration.pan.axis {
        case .free:
            let length = (t.x * t.x + t.y * t.y).squareRoot()
            return length > 0 ? t * (1 / length) : Point(x: 1, y: 0)
        case .x, .y:
            let unit = configuration.pan.axis == .x ? Point(x: 1, y: 0) : Point(x: 0, y: 1)
            switch configuration.pan.direction {
            case .positive: return unit
            case .negative: return unit * -1
            case .both:
                // Pitfall.noAbs: the signed rule always measures along the positive axis.
                if configuration.pitfalls.contains(.noAbs) { return unit }
                return (configuration.pan.axis == .x ? t.x : t.y) < 0 ? unit * -1 : unit
            }
        }
    }

    /// Progress (clamped) and its rate (progress/s, unclamped) from the pan.
    func trackedProgress() -> (progress: Double, velocity: Double) {
        let t = recognizer.translation
        let v = recognizer.velocity
        let distance = configuration.distance
        func dot(_ p: Point, _ q: Point) -> Double { p.x * q.x + p.y * q.y }
        let raw: Double
        let rate: Double
        if let base = grabbedAt {
            raw = base + dot(t, gestureAxis) / distance
            rate = dot(v, gestureAxis) / distance
        } else if configuration.pan.axis == .free {
            let length = (t.x * t.x + t.y * t.y).squareRoot()
            raw = length / distance
            rate = length > 0 ? dot(v, t * (1 / length)) / distance : 0
        } else if configuration.pan.direction == .both, configuration.pitfalls.contains(.noAbs) {
            // Pitfall.noAbs: translation.x / 200 without the seed's abs, signed along the axis.
            raw = dot(t, gestureAxis) / distance
            rate = dot(v, gestureAxis) / distance
        } else if configuration.pan.direction == .both {
            // The seed's rule: progress = |translation| / distance along the axis.
            let along = dot(t, gestureAxis)
            raw = abs(along) / distance
            rate = (along < 0 ? -1 : 1) * dot(v, gestureAxis) / distance
        } else {
            raw = max(dot(t, gestureAxis), 0) / distance
            rate = dot(v, gestureAxis) / distance
        }
        let lower = configuration.clampLower, upper = configuration.clampUpper
        if let constant = configuration.rubberBand {
            // Stretched past the limits instead of stopped (RubberBand), with UIScrollView's d:
            // the container's extent along the pan, in progress. The rate stays the finger's:
            // the release decides by how the pan moved.
            let d = rubberBandExtent() / distance
            return (RubberBand(constant: constant).limit(raw, lower: lower, upper: upper, dimension: d), rate)
        }
        return (min(max(raw, lower), upper), rate)
    }

    /// The container's extent along the pan, in points: its width on the x axis, its height on
    /// y, and for the free axis the length of the line through it along the pan's direction
    /// (the shorter of width/|u.x| and height/|u.y|), which is the width or height again when
    /// the direction is a coordinate axis.
    func rubberBandExtent() -> Double {
        let size = configuration.container
        let u = gestureAxis
        let alongX = u.x != 0 ? size.width / abs(u.x) : Double.infinity
        let alongY = u.y != 0 ? size.height / abs(u.y) : Double.infinity
        let extent = min(alongX, alongY)
        return extent.isFinite ? extent : size.width
    }
}
