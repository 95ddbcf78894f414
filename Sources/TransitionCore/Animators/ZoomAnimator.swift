/// iOS 18's zoom transition (`preferredTransition = .zoom(sourceViewProvider:)`, on push and
/// present): the destination grows out of the source view's rect to its full frame, and on the
/// way back shrinks into it. Apple, "Enhancing your app with fluid transitions"
/// (developer.apple.com/documentation/uikit/enhancing-your-app-with-fluid-transitions), and
/// WWDC 2024 session 10145 "Enhance your UI animations and transitions".
///
/// The card is drawn at its rect's size (a morph between the source's rect and the full frame,
/// as UIKit clips the zooming view to the rect between them), its corners rounding toward the
/// source. `source` is the configuration's `originFrame` in the container (a scene sets it to
/// the source view's rect; outside a scene the demo's default thumbnail).
///
/// Not published by Apple, inferred and chosen: the timing is UIKit's default spring —
/// critically damped (bounce 0) over 0.5 s (WWDC 2023 session 10158 "Animate with springs") —
/// and the source end's corner radius is 12 pt. The interactive dismissal's geometry is in
/// `ZoomAnimator+Drag.swift`. Tested in ZoomAnimatorTests.
public struct ZoomAnimator: TransitionAnimator {
    public static let defaultDuration = 0.5
    /// The card's corner radius at the source's end (the source view's, which the scene does not know).
    public static let sourceCornerRadius = 12.0
    /// The covered side's dimming at its fullest: `UIZoomTransitionOptions.dimmingColor`'s
    /// default, black at this alpha (not published: inferred, chosen).
    public static let dimmingAlpha = 0.2

    public let duration: Double
    let container: Size
    let operation: TransitionOperation
    /// Where the card grows from and shrinks back into, in the container's coordinates.
    public let source: Rect
    let spring: SpringTiming

    public init(configuration: TransitionConfiguration) {
        duration = configuration.duration
        container = configuration.container
        operation = configuration.operation
        source = configuration.effectiveOriginFrame
        spring = SpringTiming(dampingRatio: 1, duration: configuration.duration)
    }

    /// The full frame the card rests in when presented.
    public var home: Rect { Rect(origin: .zero, size: container) }

    /// The card's rect at timeline `time` when the transition plays by itself.
    public func card(at time: Double) -> Rect {
        let s = spring.value(at: time)
        return operation == .present
            ? source.interpolated(to: home, fraction: s) : home.interpolated(to: source, fraction: s)
    }

    public func layers(at time: Double, into layers: inout [LayerState]) {
        if isComplete(time) {
            layers.append(operation == .present ? cardLayer(home) : .screen(.to, .presenter, in: container, z: 0))
            return
        }
        self.layers(card: card(at: time), into: &layers)
    }

    /// Appends the covered screen beneath and the card at `card`.
    func layers(card: Rect, into layers: inout [LayerState]) {
        let covered: LayerID = operation == .present ? .from : .to
        layers.append(.screen(covered, .presenter, in: container, z: 0))
        layers.append(cardLayer(card))
    }

    /// How far `card` is from the full frame toward the source, 0…1, by its width (the radius follows it).
    func towardSource(_ card: Rect) -> Double {
        let span = home.width - source.width
        guard span > 0 else { return 0 }
        return min(max((home.width - card.width) / span, 0), 1)
    }

    private func cardLayer(_ card: Rect) -> LayerState {
        LayerState(
            id: operation == .present ? .to : .from, content: .presented, center: card.center,
            bounds: Size(width: max(card.width, 0), height: max(card.height, 0)),
            cornerRadius: Self.sourceCornerRadius * towardSource(card), z: 1)
    }
}

extension Rect {
    /// The rect `fraction` of the way to `other`, each edge linearly.
    public func interpolated(to other: Rect, fraction f: Double) -> Rect {
        Rect(
            x: minX + (other.minX - minX) * f, y: minY + (other.minY - minY) * f,
            width: width + (other.width - width) * f, height: height + (other.height - height) * f)
    }
}
