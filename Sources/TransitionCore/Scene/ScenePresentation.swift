/// One presentation in the scene: who presents whom, with what was actually used.
public struct ScenePresentation: Equatable, Sendable {
    /// The presented controller, with its current navigation stack if it is a navigation controller.
    public var presented: SceneController
    /// The presenting controller UIKit settles on (`presentingViewController`): for the context
    /// styles the context found by the walk; otherwise the root of the presentation layer the
    /// request came from (the window's root or the presented controller of that layer).
    public var presenter: String
    /// The controller `present` was called on (`from`).
    public var source: String
    /// The style in force: when no controller defines a context, `currentContext` falls back
    /// to `fullScreen` and `overCurrentContext` to `overFullScreen` (REFERENCE §3).
    public var style: PresentationStyle
    /// The transition in force (the context's own when it provides its transition style).
    public var transition: TransitionKind
    /// The presented view's frame at rest, in device coordinates.
    public var frame: Rect

    public init(
        presented: SceneController, presenter: String, source: String, style: PresentationStyle,
        transition: TransitionKind, frame: Rect
    ) {
        self.presented = presented
        self.presenter = presenter
        self.source = source
        self.style = style
        self.transition = transition
        self.frame = frame
    }

    /// The context controller for a context-based presentation.
    public var context: String? { style.isContextBased ? presenter : nil }
}
