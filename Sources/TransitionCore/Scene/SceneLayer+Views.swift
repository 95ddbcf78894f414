/// A controller's named views (`SceneView`) as layers of the picture: each right above its
/// controller's view, in device coordinates, moving with it (pushed back, blended between two
/// pictures). Role `view`; the page draws a rounded rect with the id (sceneCards.js).
/// SceneViewLayerTests.
extension Array where Element == SceneLayer {
    /// These layers with every content view's named views after it.
    func withViews(_ hierarchy: SceneHierarchy) -> [SceneLayer] {
        guard contains(where: { $0.role.holdsContent && !(hierarchy.controller($0.controller)?.views.isEmpty ?? true) })
        else { return self }
        var layers: [SceneLayer] = []
        layers.reserveCapacity(count + SceneView.maximumPerController)
        for layer in self {
            layers.append(layer)
            guard layer.role.holdsContent, let views = hierarchy.controller(layer.controller)?.views else { continue }
            for view in views { layers.append(layer.viewLayer(view)) }
        }
        return layers
    }
}

extension SceneLayer.Role {
    /// The roles that draw a controller's own content (its named views sit on them).
    public var holdsContent: Bool { self == .root || self == .presented || self == .child }
}

extension SceneLayer {
    /// A rect in this controller's own coordinates, placed where this view is drawn (its frame's
    /// origin, and its scale when pushed back).
    public func placing(_ rect: Rect) -> Rect {
        Rect(
            x: frame.minX + rect.minX * scale, y: frame.minY + rect.minY * scale, width: rect.width * scale,
            height: rect.height * scale)
    }

    /// The layer of `view`, a named view of this controller.
    func viewLayer(_ view: SceneView) -> SceneLayer {
        SceneLayer(
            controller: controller, role: .view, frame: placing(view.frame),
            cornerRadius: SceneView.cornerRadius * scale, scale: scale, opacity: opacity, group: group, view: view.id)
    }
}

extension SceneView {
    /// The corner radius a named view is drawn with (a thumbnail's look; the wire has no radius).
    public static let cornerRadius = 8.0
}
