/// A view inside a controller's content that the scene knows by name: a thumbnail a zoom
/// transition grows out of, a scroll view or a pan that competes with UIKit's gestures. It
/// lives in its controller's own coordinates (origin at the top-left of the controller's view,
/// y down) and moves with it. The wire's `views` of a controller (SceneController+Wire's
/// parser; SceneViewWireTests hold its bounds).
public struct SceneView: Equatable, Hashable, Sendable {
    /// What the view is, as far as the scene's gestures care.
    public enum Kind: String, Equatable, Hashable, Sendable, CaseIterable {
        /// A plain view (an image, a cell): a source a transition can name.
        case view
        /// A scroll view that scrolls horizontally (a carousel, a paged strip).
        case horizontalScroll = "horizontal-scroll"
        /// A scroll view that scrolls vertically (a table, a sheet's content).
        case verticalScroll = "vertical-scroll"
        /// A view with the app's own pan gesture recognizer (a slider, a map).
        case pan
    }

    /// A controller names at most this many (each is drawn and hit-tested per pointer down).
    public static let maximumPerController = 8
    /// Coordinates and sizes stay within ±this many points (a tablet is 1,180 pt tall).
    public static let maximumExtent = 10_000.0

    public var id: String
    public var kind: Kind
    /// In the controller's own coordinates.
    public var frame: Rect
    /// A horizontal scroll view's content offset is at its leading edge (its minimum: scrolled
    /// fully left). Only a horizontal scroll view reads it (the content swipe's yielding,
    /// `Scene.contentPopStart`); true by default, as a scroll view starts there.
    public var atLeadingEdge: Bool

    public init(id: String, kind: Kind = .view, frame: Rect, atLeadingEdge: Bool = true) {
        self.id = id
        self.kind = kind
        self.frame = frame
        self.atLeadingEdge = atLeadingEdge
    }
}
