/// One view on screen at rest, for the page and the frames: bottom to top.
public struct SceneLayer: Equatable, Sendable {
    public enum Role: String, Equatable, Hashable, Sendable, CaseIterable {
        /// The window's root controller's view (a plain root).
        case root
        /// A presented controller's view (a plain presented controller).
        case presented
        /// The visible (top) child of a navigation controller, below its bar.
        case child
        /// A navigation controller's bar, `title` = its top child's title.
        case navigationBar
        /// The dimming view under a tablet sheet (`controller` = the sheet).
        case dimming
        /// A named view in a controller's content (`SceneView`; `view` = its id), drawn above
        /// its controller's view and moving with it (SceneLayer+Views.swift).
        case view
        /// A sheet's grabber (`prefersGrabberVisible`), on its card's top edge.
        case grabber
    }

    public var controller: String
    public var role: Role
    /// On screen, in device coordinates, after `scale`.
    public var frame: Rect
    public var cornerRadius: Double
    /// 1, or the pushed-back scale under a phone card (the content is drawn scaled by it).
    public var scale: Double
    public var opacity: Double
    /// The navigation bar's title; nil for the other roles.
    public var title: String?
    /// The presentation layer the view belongs to: the root's id or a (non-context)
    /// presented controller's id. Layers of one group move together (pushed back).
    public var group: String
    /// The named view's id for role `view`; nil for the other roles.
    public var view: String?

    public init(
        controller: String, role: Role, frame: Rect, cornerRadius: Double = 0, scale: Double = 1,
        opacity: Double = 1, title: String? = nil, group: String, view: String? = nil
    ) {
        self.controller = controller
        self.role = role
        self.frame = frame
        self.cornerRadius = cornerRadius
        self.scale = scale
        self.opacity = opacity
        self.title = title
        self.group = group
        self.view = view
    }
}
