/// What the transition engine must animate for one scene operation, and the callbacks sent
/// when it starts.
public struct SceneTransitionPlan: Equatable, Sendable {
    public var action: SceneAction
    /// The animator: the presented controller's transition style (the context's when it
    /// provides one), the top-most presentation's on a dismissal, `push` (or the push's own) in
    /// navigation.
    public var kind: TransitionKind
    /// present and push run `.present`; dismiss and pop `.dismiss` (the same animator reversed).
    public var operation: TransitionOperation
    /// The controller whose view is covered or leaves: the presenter (present), the top-most
    /// dismissed controller (dismiss), the old top of the stack (push), the popped one (pop).
    public var from: String
    /// The controller whose view arrives or is revealed.
    public var to: String
    /// The presentation style in force (present, dismiss); nil for push and pop.
    public var style: PresentationStyle?
    /// The context controller of a context-based presentation (or its dismissal).
    public var context: String?
    /// Where the animation plays, in device coordinates: the presented view's frame (the
    /// screen, a sheet's card, the context's frame), the navigation controller's content frame.
    public var container: Rect
    /// Whether the presenter's view leaves the window when a presentation finishes (and so
    /// is put back under the dismissed view on dismissal): fullScreen and currentContext, and
    /// always for push and pop (the covered child's view is removed).
    public var removesPresenterView: Bool
    /// The pan should start at the left edge (`interactivePopGestureRecognizer`): pop.
    public var edgeSwipe: Bool
    public var animated: Bool
    /// The callbacks sent when the transition starts, in order.
    public var startEvents: [LifecycleEvent]
    /// For a non-animated operation, which completes at once: the end callbacks
    /// (`completeTransition(true)` first). Empty for an animated one (see `Scene.end(completed:)`).
    public var endEvents: [LifecycleEvent]
    /// A present or dismiss that turns the interface (a full-screen presented controller's
    /// preferred orientation, or a revealed controller that does not allow the current one):
    /// the rotation that plays with it, committed with the transition. Its events are empty
    /// (docs/SCENE.md, "Orientation and rotation").
    public var rotation: RotationPlan? = nil
    /// A sheet's swipe-down blocked by `isModalInPresentation` (`DismissGesture.resists`): the
    /// pan starts nothing in the scene; the card follows the finger with rubber-band resistance
    /// and always finishes back (`configuration(from:)`; SceneDismissGestureTests).
    public var resists = false
    /// A zoom transition's source view (Scene+Zoom.swift); nil for every other kind.
    public var zoomSource: ZoomSource? = nil
    /// The source view's rect in the container's coordinates, within it (the card's far end).
    public var zoomFrame = Rect.zero

    public init(
        action: SceneAction, kind: TransitionKind, from: String, to: String, style: PresentationStyle?,
        context: String?, container: Rect, removesPresenterView: Bool, edgeSwipe: Bool, animated: Bool,
        startEvents: [LifecycleEvent], endEvents: [LifecycleEvent] = []
    ) {
        self.action = action
        self.kind = kind
        self.operation = action.operation
        self.from = from
        self.to = to
        self.style = style
        self.context = context
        self.container = container
        self.removesPresenterView = removesPresenterView
        self.edgeSwipe = edgeSwipe
        self.animated = animated
        self.startEvents = startEvents
        self.endEvents = endEvents
    }

    /// `base` with this plan's kind, operation, the kind's default duration, the container's
    /// size, and the pan that drives it: the system directional kinds pan along their motion
    /// (cover vertical: up to present, down to dismiss; push: left, pop: right from the edge),
    /// over the container's extent (1:1 with the finger).
    public func configuration(from base: TransitionConfiguration) -> TransitionConfiguration {
        var configuration = base
        configuration.kind = kind
        configuration.operation = operation
        configuration.duration = kind.defaultDuration
        configuration.container = container.size
        if resists {
            // Held just past 0 and stretched by UIScrollView's rubber band (c = 0.55): a drag of
            // the whole card reaches 0.355 of it, under the threshold, and a flick cannot
            // project past it: the release always cancels, whatever the session's rules.
            configuration.clampLower = 0
            configuration.clampUpper = 0.001
            configuration.rubberBand = 0.55
            configuration.threshold = 0.5
            configuration.flingVelocity = nil
            configuration.releaseRule = .threshold
            configuration.pitfalls = []
        }
        // The directional kinds pan along their motion, and the view follows the finger 1:1,
        // as UIKit's own gestures do (a sheet swiped down, the edge-swipe pop): the whole
        // travel is the container's extent along the pan. The other kinds keep the configured
        // pan and distance (their views do not travel with the finger).
        let axis: PanAxis
        switch kind {
        case .coverVertical:
            axis = .y
            configuration.distance = container.height
        case .push:
            axis = .x
            configuration.distance = container.width
        case .zoom where operation == .dismiss:
            // The card follows the finger in two dimensions; progress is the drag down the
            // container (or the edge swipe across it), and the settle is a spring (ZoomDismissRelease).
            axis = edgeSwipe ? .x : .y
            configuration.distance = edgeSwipe ? container.width : container.height
            configuration.completionCurve = .spring
            configuration.completionDamping = 1
        default:
            return configuration
        }
        configuration.pan.axis = axis
        // Presenting moves up (cover vertical) or left (push); dismissing the other way.
        configuration.pan.direction = operation == .present ? .negative : .positive
        return configuration
    }
}
