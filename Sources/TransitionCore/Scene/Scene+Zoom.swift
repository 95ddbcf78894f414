/// The zoom transition in the scene: which view a zoom grows out of, where that view is in the
/// transition's container, and the dismissal gesture a zoom-presented controller gets.
extension Scene {
    /// The API name the iOS-version refusal cites.
    static let zoomAPI = "UIViewController.Transition.zoom(sourceViewProvider:)"

    /// `plan` (just begun by present, push, dismiss or pop on this scene) with its zoom source:
    /// for a zoom present or push, `source` must name a `view`-kind view of a visible controller
    /// of the presenting layer (present) or of the pushing controller (push); a dismissal or pop
    /// of a controller zoomed in shrinks back into the view it grew out of. The source's rect is
    /// taken from the picture the card meets (the picture of `before` — this scene before the
    /// present or push — or the picture after a dismissal or pop), in the container's
    /// coordinates, within it; a present or push finds its source in `before`'s hierarchy.
    ///
    /// Errors: `unavailable-in-ios` (the zoom before iOS 18: Apple, `preferredTransition`,
    /// iOS 18.0+), `invalid-source` (missing, unknown, not a `view`, outside the container, or
    /// given for another transition); a refusal leaves this scene unchanged. SceneZoomTests.
    public mutating func attachZoom(to plan: SceneTransitionPlan, source: String?, before: Scene)
        throws(SceneError) -> SceneTransitionPlan
    {
        var next = self
        let zoomed = try next.attachingZoom(to: plan, source: source, before: before)
        self = next
        return zoomed
    }

    private mutating func attachingZoom(to plan: SceneTransitionPlan, source: String?, before: Scene)
        throws(SceneError) -> SceneTransitionPlan
    {
        guard plan.kind == .zoom else {
            if let source {
                throw .invalidSource(
                    "'source' (\"\(source)\") is the view a zoom transition grows out of; this \(plan.action.rawValue) "
                        + "runs \(plan.kind.rawValue)")
            }
            forgetZoomSourcesOfTheGone()
            return plan
        }
        guard options.ios.atLeast(18) else { throw .unavailableInIOS(api: Self.zoomAPI, since: 18, ios: options.ios) }
        var plan = plan
        let zoomSource: ZoomSource
        let layers: [SceneLayer]
        switch plan.action {
        case .present, .push:
            guard let source else {
                throw .invalidSource(
                    "a zoom transition needs 'source': the id of a view (kind \"view\") of \(plan.from) to grow out of")
            }
            zoomSource = try before.findSource(source, for: plan)
            layers = before.picture.before
            if pending != nil {
                pending!.committed.zoomSources[plan.to] = zoomSource
            } else {
                hierarchy.zoomSources[plan.to] = zoomSource
            }
        case .dismiss, .pop:
            guard let known = hierarchy.zoomSources[plan.from] else {
                throw .invalidSource("\(plan.from) was not zoomed in from a source view, so it cannot zoom back")
            }
            zoomSource = known
            layers = picture.after
        }
        guard let frame = Self.sourceFrame(zoomSource, in: layers, library: library, container: plan.container)
        else {
            throw .invalidSource(
                "the source view \"\(zoomSource.view)\" of \(zoomSource.controller) lies outside the transition's "
                    + "container")
        }
        plan.zoomSource = zoomSource
        plan.zoomFrame = frame
        pending?.plan.zoomSource = zoomSource
        pending?.plan.zoomFrame = frame
        forgetZoomSourcesOfTheGone()
        return plan
    }

    /// A controller that left the hierarchy (dismissed, popped, or presented above one that was)
    /// takes its zoom source with it: brought back without the zoom, it has none.
    private mutating func forgetZoomSourcesOfTheGone() {
        if let committed = pending?.committed, committed.zoomSources.keys.contains(where: { !committed.contains($0) }) {
            pending!.committed.zoomSources = committed.zoomSources.filter { committed.contains($0.key) }
        }
        if hierarchy.zoomSources.keys.contains(where: { !hierarchy.contains($0) }) {
            hierarchy.zoomSources = hierarchy.zoomSources.filter { hierarchy.contains($0.key) }
        }
    }

    /// The view `id` in the presenting layer (present: its visible controllers, top first) or the
    /// pushing controller (push).
    private func findSource(_ id: String, for plan: SceneTransitionPlan) throws(SceneError) -> ZoomSource {
        let candidates =
            plan.action == .push
            ? [plan.from] : hierarchy.appeared().reversed().filter { hierarchy.layerRoot(of: $0) == plan.from }
        for candidate in candidates {
            guard let view = hierarchy.controller(candidate)?.views.first(where: { $0.id == id }) else { continue }
            guard view.kind == .view else {
                throw .invalidSource(
                    "the source \"\(id)\" of \(candidate) is a \(view.kind.rawValue); a zoom grows out of a view of "
                        + "kind \"view\"")
            }
            return ZoomSource(controller: candidate, view: id)
        }
        throw .invalidSource(
            "no view \"\(id)\" in \(candidates.joined(separator: ", ")) (a zoom's source is a view of the "
                + "\(plan.action == .push ? "pushing" : "presenting") controller)")
    }

    /// The source view's rect in `container`'s coordinates, clipped to it: where its controller's
    /// view is in `layers` (its frame and scale). Nil when the controller is not drawn there or
    /// the view lies (almost) wholly outside the container.
    static func sourceFrame(
        _ source: ZoomSource, in layers: [SceneLayer], library: [String: SceneController], container: Rect
    ) -> Rect? {
        guard
            let owner = layers.first(where: { $0.controller == source.controller && $0.role.holdsContent }),
            let view = library[source.controller]?.views.first(where: { $0.id == source.view })
        else { return nil }
        let rect = owner.placing(view.frame)
        let minX = max(rect.minX, container.minX), maxX = min(rect.maxX, container.maxX)
        let minY = max(rect.minY, container.minY), maxY = min(rect.maxY, container.maxY)
        guard maxX - minX >= 1, maxY - minY >= 1 else { return nil }
        return Rect(x: minX - container.minX, y: minY - container.minY, width: maxX - minX, height: maxY - minY)
    }

    /// The controller whose zoom-presented view is on top: its drag down dismisses it (iOS 18+).
    /// Nil when the top-most presentation is not a zoom.
    public var zoomDismissal: String? {
        guard options.ios.atLeast(18), let last = hierarchy.composition().zOrder.last else { return nil }
        let top = hierarchy.presentations[last]
        return top.transition == .zoom ? top.presented.id : nil
    }

    /// The named views of the controller instance `id` (none for an unknown id): a dictionary
    /// lookup, no walk of the hierarchy (a frame asks for the moving controller's).
    public func namedViews(of id: String) -> [SceneView] { library[id]?.views ?? [] }

    /// The view a presented controller zoomed in from, for `scene-state`.
    public func zoomSource(of presented: String) -> ZoomSource? { hierarchy.zoomSources[presented] }
}
