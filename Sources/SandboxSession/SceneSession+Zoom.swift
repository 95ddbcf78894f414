import TransitionCore

extension SceneCommand {
    /// Carries the request out on `scene` with its zoom source (`Scene.attachZoom`), on a copy
    /// so that a refused source changes nothing.
    func perform(on scene: inout Scene) throws(SceneError) -> SceneTransitionPlan {
        var copy = scene
        let plan = try request.perform(on: &copy, animated: animated)
        let zoomed = try copy.attachZoom(to: plan, source: source, before: scene)
        scene = copy
        return zoomed
    }
}

/// The zoom's gestures and what a scene frame draws of the views the scene names.
extension SceneSession {
    /// The zoom-presented controller's own dismissal: a drag down anywhere in it (iOS 18+;
    /// `Scene.zoomDismissal`). False when the top-most presentation is not a zoom.
    mutating func armZoomDismissal() -> Bool {
        guard scene.zoomDismissal != nil else { return false }
        let command = SceneCommand(request: .dismiss(nil), animated: true, interactive: true)
        guard let plan = try? trial(command) else { return false }
        arm(command, plan: plan, isDefault: true)
        return true
    }

    /// A down outside the edge band with a zoom push's pop armed: the drag down anywhere in the
    /// pushed view pops it too, the card following the finger (not only the edge swipe).
    mutating func armZoomDragInsteadOfEdgePop() -> Bool {
        guard let armed, armed.isDefault, armed.plan.action == .pop, armed.plan.kind == .zoom, armed.plan.edgeSwipe
        else { return false }
        var plan = armed.plan
        plan.edgeSwipe = false
        arm(armed.command, plan: plan, isDefault: true)
        return true
    }

    /// The still views a frame draws (`picture`'s at the transition's eased progress), and:
    /// during a zoom, its source view hidden (UIKit hides it while the card stands in for it)
    /// and the covered side dimmed; and the moving controller's named views placed on its
    /// animator layer (`animator`), after everything else (the page draws them above the
    /// animator's layers). Unchanged, and not copied, when neither applies. SessionZoomTests.
    func drawnLayers(_ picture: ScenePicture, progress eased: Double, animator: [LayerState]) -> [SceneLayer] {
        let still = stillLayers(picture, progress: eased)
        guard let plan, let moving else { return still }
        let views = scene.namedViews(of: moving)
        let zooming = flight != nil && plan.kind == .zoom
        guard zooming || !views.isEmpty else { return still }
        var layers = still
        if zooming, let source = plan.zoomSource {
            for index in layers.indices
            where layers[index].role == .view && layers[index].controller == source.controller
                && layers[index].view == source.view
            {
                layers[index].opacity = 0
            }
            let shown = plan.operation == .present ? eased : 1 - eased
            layers.append(
                SceneLayer(
                    controller: moving, role: .dimming, frame: plan.container,
                    opacity: ZoomAnimator.dimmingAlpha * shown, group: moving))
        }
        let id: LayerID = plan.operation == .present ? .to : .from
        guard let card = animator.first(where: { $0.id == id }), let corners = card.projectedCorners() else {
            return layers
        }
        let size = plan.container.size
        for view in views {
            let frame = Self.place(view.frame, of: size, on: corners, at: plan.container.origin)
            let scale = view.frame.width > 0 ? frame.width / view.frame.width : 1
            layers.append(
                SceneLayer(
                    controller: moving, role: .view, frame: frame, cornerRadius: SceneView.cornerRadius * scale,
                    scale: scale, opacity: card.opacity, group: moving, view: view.id))
        }
        return layers
    }

    /// `rect` (in a view of `size`) on a layer whose corners are `corners` (top-left, top-right,
    /// bottom-right, bottom-left, in the container at `origin`): the bounding box of its corners,
    /// mapped bilinearly (exact for the 2-D animators).
    static func place(_ rect: Rect, of size: Size, on corners: [Point], at origin: Point) -> Rect {
        func map(_ x: Double, _ y: Double) -> Point {
            let u = size.width > 0 ? x / size.width : 0
            let v = size.height > 0 ? y / size.height : 0
            let top = corners[0].interpolated(to: corners[1], fraction: u)
            let bottom = corners[3].interpolated(to: corners[2], fraction: u)
            return top.interpolated(to: bottom, fraction: v) + origin
        }
        let points = [
            map(rect.minX, rect.minY), map(rect.maxX, rect.minY), map(rect.maxX, rect.maxY), map(rect.minX, rect.maxY),
        ]
        let xs = points.map(\.x), ys = points.map(\.y)
        let minX = xs.min()!, minY = ys.min()!
        return Rect(x: minX, y: minY, width: xs.max()! - minX, height: ys.max()! - minY)
    }
}
