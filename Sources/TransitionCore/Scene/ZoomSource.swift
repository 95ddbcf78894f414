/// The view a zoom transition grows out of and shrinks back into: a `view`-kind `SceneView` of
/// the presenting (or pushing) controller, named by the request's `source` (Scene+Zoom.swift).
public struct ZoomSource: Equatable, Hashable, Sendable {
    /// The controller whose content holds the view.
    public var controller: String
    /// The view's id in that controller's `views`.
    public var view: String

    public init(controller: String, view: String) {
        self.controller = controller
        self.view = view
    }
}
