/// The side of a scene transition that the animator does not move: the presenter a present
/// covers, the presenter a dismissal reveals, the child a push covers or a pop reveals. While
/// the transition runs, its view is drawn by the kind's own covered-side animation (the push's
/// parallax, the flip's first half, the curl's page) instead of at rest.
///
/// Only a view that **leaves or arrives** animates: a full-screen or current-context present
/// and its dismissal, a push and a pop (`SceneTransitionPlan.removesPresenterView`, Apple's
/// `UIPresentationController.shouldRemovePresentersView`). A presentation that keeps the
/// presenter's view in the window (a sheet, an `over…` style) moves it itself, so there it stays
/// the picture's interpolated still view (a presenter pushed back under a sheet): inferred, UIKit
/// does not say what a system animator does to a view its presentation keeps. `CoveredSideTests`.
///
/// Worked out once per transition, when the scene composes its pictures (`Scene.picture`): a
/// frame maps one animator layer and adds at most one shade (`layer(_:)`,
/// `shade(over:progress:)`), never composes the scene.
public struct CoveredSide: Equatable, Sendable {
    /// What a kind does to its covered view. A new kind adds its case to `effect(of:)` (the
    /// compiler asks for it: the switch is exhaustive) and, if none of these fits, a case here.
    public enum Effect: Equatable, Sendable {
        /// The animator's own layer of the covered view, as it is: the seeds' fade, pop and reveal
        /// (seed 000's animators animate both views in their container), cover vertical (the
        /// presenter stays), the flip's turning side, the curl's page, and the cross-dissolve's
        /// opaque old view under the new one fading in — together Apple's cross-fade exactly,
        /// (1 − f)·old + f·new ("the current view fades out while the new view fades in"); fading
        /// this layer too would show a quarter of the old view half way.
        case animator
        /// The navigation push: the animator's parallax, under UIKit's dimming shade.
        case parallaxDimmed
        /// No covered side: the view stays a still view. The zoom (WWDC 2024 session 10145: the
        /// source view's screen stays in place behind the zooming one), whose dimming the session
        /// draws over it (`SceneSession.drawnLayers`).
        case still
    }

    /// UIKit's navigation parallax dims the covered view with black at this alpha when fully
    /// dimmed (`_UIParallaxDimmingView initWithFrame:overrideDimmingColor:`: `blackColor`
    /// `colorWithAlphaComponent:0.1`, the decompile of iOS 26.1's UIKitCore).
    public static let parallaxShade = 0.1

    /// The covered controller (`plan.from` presenting or pushing, `plan.to` dismissing or popping).
    public let controller: String
    /// The controllers whose views it draws: the covered one and, for a navigation controller,
    /// its stack (its bar and its visible child).
    public let views: [String]
    /// Its view's frame in the scene at rest (the union of its views), interface coordinates.
    public let frame: Rect
    public let cornerRadius: Double
    public let kind: TransitionKind
    public let operation: TransitionOperation
    /// The animator's container (`plan.container`), where its layers are placed.
    public let container: Rect

    /// The covered side of `plan`, or nil when its view neither leaves nor arrives (it stays a
    /// still view), when the animator's container is empty, or when its views are not found
    /// in exactly one of the pictures. `views`: the covered controller's ids (`allIDs`).
    init?(plan: SceneTransitionPlan, views: [String], before: [SceneLayer], after: [SceneLayer]) {
        guard plan.removesPresenterView, plan.container.width > 0, plan.container.height > 0,
            Self.effect(of: plan.kind) != .still
        else { return nil }
        let presenting = plan.operation == .present
        let (own, other) = presenting ? (before, after) : (after, before)
        func isMine(_ layer: SceneLayer) -> Bool { layer.role != .dimming && views.contains(layer.controller) }
        guard let first = own.first(where: isMine), !other.contains(where: isMine) else { return nil }
        var minX = first.frame.minX, minY = first.frame.minY, maxX = first.frame.maxX, maxY = first.frame.maxY
        for layer in own where isMine(layer) {
            minX = min(minX, layer.frame.minX)
            minY = min(minY, layer.frame.minY)
            maxX = max(maxX, layer.frame.maxX)
            maxY = max(maxY, layer.frame.maxY)
        }
        controller = presenting ? plan.from : plan.to
        self.views = views
        frame = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        cornerRadius = first.cornerRadius
        kind = plan.kind
        operation = plan.operation
        container = plan.container
    }

    /// The animator layer that is the covered view: `from` presenting, `to` dismissing.
    public var layerID: LayerID { operation == .present ? .from : .to }

    /// What `kind` does to its covered view: one case per kind.
    public static func effect(of kind: TransitionKind) -> Effect {
        switch kind {
        case .fade, .pop, .reveal, .coverVertical, .flipHorizontal, .crossDissolve, .partialCurl: return .animator
        case .push: return .parallaxDimmed
        case .zoom: return .still
        }
    }

    /// The covered view: the animator's covered layer (`layerID`, in container coordinates,
    /// at the transition's time) mapped onto the view's own frame in the scene — its
    /// bounds become the frame's size, its displacement from rest and its translation scale with
    /// the frame over the container, so a view smaller than the container (a sheet's card under
    /// a full-screen present) moves in proportion to itself — keeping its rounded corners. Still
    /// in container coordinates (the page adds the container's origin), as the animator's others.
    public func layer(_ animator: LayerState) -> LayerState {
        let sx = frame.width / container.width
        let sy = frame.height / container.height
        var layer = animator
        layer.bounds = frame.size
        layer.center = Point(
            x: frame.midX - container.minX + (animator.center.x - container.width / 2) * sx,
            y: frame.midY - container.minY + (animator.center.y - container.height / 2) * sy)
        layer.transform.tx *= sx
        layer.transform.ty *= sy
        layer.cornerRadius = max(animator.cornerRadius, cornerRadius)
        return layer
    }

    /// The shade drawn over the covered view (`covered`, as `layer(_:)` made it), nil
    /// for a kind without one. The push's: black, `parallaxShade` × the eased fraction of the
    /// push, from none to full as the view is covered and back on a pop (inferred: UIKit's
    /// dimming view's amount goes 0 → 1 in the push's animation block, on its curve).
    public func shade(over covered: LayerState, progress: Double) -> LayerState? {
        guard Self.effect(of: kind) == .parallaxDimmed else { return nil }
        let f = eased(progress)
        let amount = operation == .present ? f : 1 - f
        return LayerState(
            id: .shade, content: .shade, center: covered.center, bounds: covered.bounds,
            transform: covered.transform, cornerRadius: covered.cornerRadius,
            opacity: Self.parallaxShade * amount * covered.opacity, z: covered.z)
    }

    /// The kind's eased fraction at `progress`, clamped to 0…1 (NaN: 0).
    private func eased(_ progress: Double) -> Double {
        let p = progress.isFinite ? min(max(progress, 0), 1) : 0
        return kind.animated(p)
    }
}

extension Scene {
    /// The covered side of the transition in flight (nil with none): `CoveredSide`'s rules, its
    /// views' ids from the hierarchy (the covered controller is in it before and after).
    static func coveredSide(
        _ hierarchy: SceneHierarchy, _ pending: Pending?, before: [SceneLayer], after: [SceneLayer]?
    ) -> CoveredSide? {
        guard let pending, let after else { return nil }
        let plan = pending.plan
        let id = plan.operation == .present ? plan.from : plan.to
        let views = hierarchy.controller(id)?.allIDs ?? pending.committed.controller(id)?.allIDs ?? [id]
        return CoveredSide(plan: plan, views: views, before: before, after: after)
    }
}
