/// Release and completion: the release rules' decision and the completion that plays it out.
extension InteractiveTransition {
    /// `fraction`: the pan's value (progress percent-driven, `fractionComplete` for a property
    /// animator), which the release rules decide by.
    mutating func release(at fraction: Double, velocity: Double, events: inout [TransitionEvent]) {
        var outcome: ReleaseDecision.Outcome
        var reason: ReleaseDecision.Reason
        // WWDC 2018's projection: where the release comes to rest, decelerating at the rate.
        let rate = configuration.decelerationRate
        var projected =
            configuration.releaseRule == .projection
            ? fraction + ReleaseRule.projectedDistance(velocity: velocity, decelerationRate: rate) : nil
        // The velocity the completion takes (UIKit's pop hands on its last sample's).
        var handedOn = velocity
        if let gesture = configuration.systemGesture {
            // UIKit's own gesture: its rule, not the app's (EdgePopReleaseTests, SystemGestureReleaseTests).
            reason = .projection
            if gesture == .edgePop {
                let pop = EdgePopRelease.decide(
                    statistics: popStatistics ?? EdgePopStatistics(time: time, displacement: fraction, velocity: 0),
                    progress: fraction, velocity: velocity, duration: configuration.duration,
                    width: configuration.distance)
                (outcome, reason, projected, handedOn) = (pop.outcome, pop.reason, pop.projected, pop.velocity)
            } else if gesture == .zoomDismiss {
                projected = ZoomDismissRelease.projected(progress: fraction, velocity: velocity)
                outcome = ZoomDismissRelease.outcome(progress: fraction, velocity: velocity)
            } else {
                projected = SheetSwipeRelease.projected(progress: fraction, velocity: velocity)
                let sheet = SheetSwipeRelease.decide(
                    progress: fraction, velocity: velocity, distance: configuration.distance)
                (outcome, reason) = (sheet.outcome, sheet.flicked ? .fling : .projection)
            }
        } else if let fling = configuration.flingVelocity, abs(velocity * configuration.distance) >= fling {
            outcome = velocity > 0 ? .finish : .cancel
            reason = .fling
        } else if let projected {
            outcome = projected < configuration.threshold ? .cancel : .finish
            reason = .projection
        } else {
            outcome = fraction < configuration.threshold ? .cancel : .finish
            reason = .threshold
        }
        // Remember which way raises progress now, so a later grab maps movement the same way
        // (with the |translation| rule a pan may have crossed back over its start).
        if grabbedAt == nil {
            let t = recognizer.translation
            if configuration.pan.axis == .free {
                let length = (t.x * t.x + t.y * t.y).squareRoot()
                if length > 0 { gestureAxis = t * (1 / length) }
            } else if configuration.pan.direction == .both, !configuration.pitfalls.contains(.noAbs),
                (t.x * gestureAxis.x + t.y * gestureAxis.y) < 0
            {
                gestureAxis = gestureAxis * -1
            }
        }
        let decision = ReleaseDecision(
            outcome: outcome, reason: reason, progress: fraction, velocity: velocity, projected: projected)
        lastRelease = decision
        events.append(.released(decision))
        if outcome == .cancel, configuration.pitfalls.contains(.completeOnCancel) {
            // Pitfall.completeOnCancel: `completeTransition(true)` from the pan handler on the
            // cancel path, the layer still paused by the percent-driven controller: reported
            // finished, frozen here, the source view removed (`layers()`). A property animator
            // is done with (inactive): the next transition creates a new one.
            if animatorState != nil {
                animatorState?.state = .inactive
                animatorState?.isRunning = false
            }
            phase = .finished
            events.append(.finished)
            return
        }
        phase = outcome == .finish ? .finishing : .cancelling
        if var state = animatorState {
            // isReversed = cancel; continueAnimation(withTimingParameters: completionCurve,
            // durationFactor:). completionSpeed and the negative-speed pitfall are the
            // percent-driven controller's and do not apply.
            state.isReversed = outcome == .cancel
            state.isRunning = true
            animatorState = state
            completion = Completion(
                animatorFrom: progress, fraction: fraction, to: outcome == .finish ? 1 : 0, at: time,
                velocity: velocity,
                configuration: configuration)
        } else if outcome == .cancel, configuration.pitfalls.contains(.negativeCompletionSpeed) {
            completion = Completion(layerClockCancelFrom: progress, at: time, configuration: configuration)
        } else {
            var completing = configuration
            let to: Double = outcome == .finish ? 1 : 0
            switch configuration.systemGesture {
            case .edgePop?:
                // At most the whole duration, less at the release's speed, on a cubic curve
                // (EdgePopReleaseTests.completion).
                completing.completionSpeed = EdgePopRelease.completionSpeed(
                    progress: progress, velocity: handedOn, to: to, duration: configuration.duration)
                completing.completionCurve = EdgePopRelease.completionCurve
            case .sheetSwipe?, .zoomDismiss?:
                // It carries on at the release's speed (SystemGestureReleaseTests.flickCompletesFast).
                completing.completionSpeed = SheetSwipeRelease.completionSpeed(
                    progress: progress, velocity: velocity, to: to, duration: configuration.duration)
            case nil: break
            }
            completion = Completion(
                from: progress, to: outcome == .finish ? 1 : 0, at: time, velocity: velocity,
                configuration: completing)
        }
        advanceCompletion(to: time, events: &events)  // a zero-length completion ends at once
    }

    mutating func advanceCompletion(to newTime: Double, events: inout [TransitionEvent]) {
        guard let running = completion, phase.isAnimating else { return }
        progress = running.progress(at: newTime)
        if animatorState?.state == .active { animatorState?.fractionComplete = running.fractionComplete(at: newTime) }
        if running.isDone(at: newTime) {
            completion = nil
            if animatorState?.state == .active, configuration.propertyAnimator.pausesOnCompletion {
                // pausesOnCompletion: active and paused at the end; no completion handler runs.
                animatorState?.isRunning = false
                phase = .paused
                events.append(.pausedOnCompletion(progress: progress))
                return
            }
            if animatorState != nil {
                // The animator finished (at .end, or .start when reversed): its completion
                // handler calls completeTransition; the animator is inactive again.
                animatorState?.state = .inactive
                animatorState?.isRunning = false
            }
            phase = running.to == 1 ? .finished : .cancelled
            events.append(phase == .finished ? .finished : .cancelled)
        }
    }
}
