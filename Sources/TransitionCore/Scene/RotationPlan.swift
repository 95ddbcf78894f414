/// What the engine must animate for one rotation of the interface: the window's root view
/// turns from `fromTransform` to `toTransform` (relative to the device) while its bounds
/// swap, over `duration` with `curve`; the callbacks of `startEvents` are sent when it starts
/// and those of `endEvents` when the animation ends. The scene has already committed the new
/// orientation (docs/SCENE.md, "Orientation and rotation").
public struct RotationPlan: Equatable, Sendable {
    public var from: InterfaceOrientation
    public var to: InterfaceOrientation
    /// The root view's transform before, relative to the device (`from.rootTransform`).
    public var fromTransform: AffineTransform
    /// The root view's transform after (`to.rootTransform`): a quarter turn is exactly
    /// `[0, −1, 1, 0, 0, 0]` (landscape left) or its inverse `[0, 1, −1, 0, 0, 0]` (landscape right).
    public var toTransform: AffineTransform
    /// The signed angle the root turns through, in radians (`CGAffineTransformMakeRotation`'s
    /// sign): ±π/2 for a quarter turn; a half turn (portrait ↔ upside down, landscape left ↔
    /// right) is +π. `from.angle + turn` ≡ `to.angle` (mod 2π).
    public var turn: Double
    /// The window's bounds (interface coordinates) before and after: width and height swap
    /// for a quarter turn.
    public var boundsBefore: Rect
    public var boundsAfter: Rect
    /// The system rotation duration: `SceneOptions.rotationDuration` per quarter turn (0.4 s),
    /// twice that for a half turn; 0 when not animated.
    public var duration: Double
    /// Ease in, ease out.
    public var curve: TimingCurve
    public var animated: Bool
    /// Sent when the rotation starts, in order.
    public var startEvents: [LifecycleEvent]
    /// Sent when the rotation animation ends (`didRotate(from:)` in the legacy sequence).
    public var endEvents: [LifecycleEvent]

    public init(
        from: InterfaceOrientation, to: InterfaceOrientation, boundsBefore: Rect, boundsAfter: Rect,
        quarterTurnDuration: Double, animated: Bool, startEvents: [LifecycleEvent] = [],
        endEvents: [LifecycleEvent] = []
    ) {
        self.from = from
        self.to = to
        fromTransform = from.rootTransform
        toTransform = to.rootTransform
        turn = Self.turn(from: from, to: to)
        self.boundsBefore = boundsBefore
        self.boundsAfter = boundsAfter
        duration = animated ? quarterTurnDuration * abs(turn) / (Double.pi / 2) : 0
        curve = .easeInEaseOut
        self.animated = animated
        self.startEvents = startEvents
        self.endEvents = endEvents
    }

    /// The shortest signed turn from `from` to `to`; +π for a half turn.
    public static func turn(from: InterfaceOrientation, to: InterfaceOrientation) -> Double {
        // In quarter turns, to stay exact: portrait 0, landscape right +1, upside down 2, landscape left −1.
        func quarters(_ o: InterfaceOrientation) -> Int {
            switch o {
            case .portrait: return 0
            case .landscapeRight: return 1
            case .portraitUpsideDown: return 2
            case .landscapeLeft: return 3
            }
        }
        var delta = (quarters(to) - quarters(from) + 4) % 4  // 0…3
        if delta == 3 { delta = -1 }
        return Double(delta) * Double.pi / 2
    }

    /// The root view's transform at `fraction` (0…1) of the turn, about the window's centre
    /// (relative to the device): a pure rotation by `from.angle + turn · fraction`, exact at
    /// both ends.
    public func transform(at fraction: Double) -> AffineTransform {
        if fraction <= 0 { return fromTransform }
        if fraction >= 1 { return toTransform }
        return AffineTransform(rotationAngle: from.angle + turn * fraction)
    }
}
