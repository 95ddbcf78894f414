import PropertyBased
import Testing

@testable import TransitionCore

/// `TrackingPicture` is the engine's tracked picture: for random pans of every kind, both
/// operations and both drivers, it equals the engine's own layers and progress at each step.
@Suite("TrackingPicture")
struct TrackingPictureTests {
    static let kinds = Gen.int(in: 0...(TransitionKind.allCases.count - 1))
    static let variants = Gen.int(in: 0...3)

    /// Variant 0: percent-driven present; 1: dismiss; 2: a property animator scrubbing along an
    /// ease-in curve (not linearly); 3: the y axis with a rubber band.
    static func configuration(kind: Int, variant: Int) -> TransitionConfiguration {
        var c = TransitionConfiguration(kind: TransitionKind.allCases[kind])
        switch variant {
        case 1: c.operation = .dismiss
        case 2:
            c.driver = .propertyAnimator
            c.propertyAnimator.curve = .easeIn
            c.propertyAnimator.scrubsLinearly = false
        case 3:
            c.pan.axis = .y
            c.rubberBand = 0.55
        default: break
        }
        return c
    }

    @Test func matchesTheEngineWhileTracking() async {
        await propertyCheck(count: 120, input: PropertyTests.steps, Self.kinds, Self.variants) { steps, kind, variant in
            let configuration = Self.configuration(kind: kind, variant: variant)
            // The zoom's dismissal follows the finger in two dimensions, not the fraction alone:
            // no table is made for it (SessionZoomTests.aZoomDismissalHasNoPredictionTable).
            if configuration.kind == .zoom, configuration.operation == .dismiss { return }
            var engine = try! InteractiveTransition(configuration: configuration)
            let picture = try! TrackingPicture(configuration: configuration)
            for (i, event) in PropertyTests.gesture(steps, hold: 0).dropLast().enumerated() {
                // On the y axis the same steps move the pointer down the screen.
                let moved =
                    variant == 3 ? PointerEvent(event.phase, x: 200, y: event.position.x, time: event.time) : event
                _ = try! engine.handle(moved)
                guard engine.phase == .tracking else { continue }
                let fraction = engine.animatorState?.fractionComplete ?? engine.progress
                #expect(picture.progress(atFraction: fraction) == engine.progress, "step \(i)")
                #expect(picture.layers(atFraction: fraction) == engine.layers(), "step \(i)")
            }
        }
    }

    /// The comparison above can fail: a picture at another fraction differs from the engine's.
    @Test func anotherFractionDiffers() throws {
        let configuration = TransitionConfiguration(kind: .push)
        var engine = try InteractiveTransition(configuration: configuration)
        _ = try engine.apply(Array(Gesture.pan(dx: 120, over: 0.2).events.dropLast()))
        #expect(engine.phase == .tracking)
        let picture = try TrackingPicture(configuration: configuration)
        #expect(picture.layers(atFraction: engine.progress) == engine.layers())
        #expect(picture.layers(atFraction: engine.progress + 0.01) != engine.layers())
    }
}
