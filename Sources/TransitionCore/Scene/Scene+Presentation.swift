extension Scene {
    /// `present(_:animated:completion:)` called on `from` (default: the top-most controller).
    ///
    /// `style` and `transition` override the controller's `presentationStyle` and
    /// `transitionStyle`; the style is resolved for the scene's release, device and orientation
    /// (`PresentationStyle.resolved`: `automatic`, phone sheets before 13). The context styles find their
    /// context by the parent walk (`SceneHierarchy.presentationContext`); its transition style
    /// wins if it `providesPresentationContextTransitionStyle`. A context that is the window's
    /// root without defining one makes the presentation full screen from `from`'s layer
    /// (REFERENCE §3): `currentContext` becomes `fullScreen`, `overCurrentContext`
    /// `overFullScreen`. The other styles present from the root of `from`'s presentation layer
    /// (`presentingViewController`).
    ///
    /// A full-screen presentation may turn the interface (`plan.rotation`; Scene+Orientation.swift).
    ///
    /// Errors, checked in this order: `busy` (or, during a present that turns the interface on
    /// iOS 8 with `doublePresentation: .exception`, seed 000's `uncaught-exception`),
    /// `unknown-controller` (`from`, or an unknown id), `invalid-scene`, `already-presented`,
    /// `already-presenting`, `not-in-window`, `curl-cannot-present` (from inside a controller
    /// presented with a partial curl), `uncaught-exception` (a partial curl not full screen),
    /// `no-common-orientation`, `unsupported-preferred-orientation`.
    @discardableResult
    public mutating func present(
        _ reference: SceneControllerReference, from: String? = nil, style: PresentationStyle? = nil,
        transition: TransitionKind? = nil, animated: Bool = true
    ) throws(SceneError) -> SceneTransitionPlan {
        if let pending { throw presentingWhileBusy(pending, reference, from: from) }
        let source = from ?? topMost
        guard hierarchy.contains(source) else { throw .unknownController(source) }
        let controller = try resolve(reference, source: source)
        var presenter = hierarchy.layerRoot(of: source)
        if let index = hierarchy.presentationIndex(presentedBy: source) {
            throw .alreadyPresenting(
                attempted: controller.id, on: presenter, source: source,
                presented: hierarchy.presentations[index].presented.id, ios: options.ios)
        }
        guard hierarchy.appeared().contains(source) else {
            throw .notInWindow(attempted: controller.id, on: presenter, source: source, ios: options.ios)
        }
        if let index = hierarchy.presentationIndex(ofPresented: presenter),
            hierarchy.presentations[index].transition == .partialCurl
        {
            throw .curledPresenter(attempted: controller.id, presenter: presenter)
        }

        var style = (style ?? controller.presentationStyle).resolved(ios: options.ios, device: device)
        var kind = transition ?? controller.transitionStyle
        // A zoom presentation covers the screen (Scene+Zoom.swift: inferred, chosen).
        if kind == .zoom { style = .fullScreen }
        try controller.checkSheet(style: style, ios: options.ios)
        var frame = hierarchy.detentFrame(hierarchy.frame(for: style), presented: controller, style: style)
        if style.isContextBased {
            let context = hierarchy.presentationContext(from: source)
            let definer = hierarchy.controller(context)
            if context == hierarchy.root.id, definer?.definesPresentationContext != true {
                // The window's root as the context: the whole screen, from `from`'s layer;
                // `over…` keeps the views beneath.
                style = style == .overCurrentContext ? .overFullScreen : .fullScreen
                frame = hierarchy.bounds
            } else {
                if let index = hierarchy.presentations.firstIndex(where: { $0.presenter == context }) {
                    throw .alreadyPresenting(
                        attempted: controller.id, on: context, source: source,
                        presented: hierarchy.presentations[index].presented.id, ios: options.ios)
                }
                presenter = context
                frame = hierarchy.frame(of: context)
                if let definer, definer.providesPresentationContextTransitionStyle {
                    kind = definer.transitionStyle
                }
            }
        }
        if kind == .partialCurl { try requireFullScreen(presented: controller.id, style: style, presenter: presenter) }

        let presentation = ScenePresentation(
            presented: controller, presenter: presenter, source: source, style: style, transition: kind, frame: frame)
        var committed = hierarchy
        committed.presentations.append(presentation)
        let rotation = try rotationForPresenting(&committed, style: style, animated: animated)
        // Nothing below throws.
        var plan = SceneTransitionPlan(
            action: .present, kind: kind, from: presenter, to: controller.id, style: style,
            context: presentation.context, container: committed.presentations[committed.presentations.count - 1].frame,
            removesPresenterView: style.removesPresenterView, edgeSwipe: false, animated: animated, startEvents: [])
        plan.rotation = rotation
        let isNew = if case .controller = reference { true } else { false }
        return begin(plan, committing: committed, introducing: isNew ? controller : nil)
    }

    /// `present` of a controller described in full.
    @discardableResult
    public mutating func present(
        _ controller: SceneController, from: String? = nil, style: PresentationStyle? = nil,
        transition: TransitionKind? = nil, animated: Bool = true
    ) throws(SceneError) -> SceneTransitionPlan {
        try present(.controller(controller), from: from, style: style, transition: transition, animated: animated)
    }

    /// `dismiss(animated:completion:)` called on `id` (default: the top-most controller).
    ///
    /// UIKit's rule: if `id` (or its navigation container) presents a controller, that one is
    /// dismissed; otherwise, if `id` is (inside) a presented controller, that presentation is
    /// dismissed; otherwise nothing is presented. Everything presented above the dismissed
    /// controller goes with it; only the top-most animates, with its own transition reversed.
    ///
    /// Revealing a controller that decides the orientation and does not allow the current one
    /// turns the interface back (`plan.rotation`).
    ///
    /// Errors: `busy`, `unknown-controller`, `nothing-presented`, `uncaught-exception` (a partial
    /// curl not full screen), `no-common-orientation`.
    @discardableResult
    public mutating func dismiss(_ id: String? = nil, animated: Bool = true) throws(SceneError) -> SceneTransitionPlan {
        if let pending { throw .busy(pending.plan.action) }
        let target = id ?? topMost
        guard hierarchy.contains(target) else { throw .unknownController(target) }
        let presentations = hierarchy.presentations
        guard
            let index = hierarchy.presentationIndex(presentedBy: target)
                ?? hierarchy.presentationIndex(ofPresented: hierarchy.layerRoot(of: target))
        else { throw .nothingPresented(target) }

        // The dismissed presentation and everything presented from inside what goes.
        var removed: Set<Int> = [index]
        var leaving = Set(presentations[index].presented.allIDs)
        for later in presentations.indices where later > index && leaving.contains(presentations[later].presenter) {
            removed.insert(later)
            leaving.formUnion(presentations[later].presented.allIDs)
        }
        let zOrder = hierarchy.composition().zOrder
        let top = zOrder.last(where: removed.contains) ?? index
        var committed = hierarchy
        committed.presentations = presentations.indices.filter { !removed.contains($0) }.map { presentations[$0] }
        committed.pushKinds = committed.pushKinds.filter { !leaving.contains($0.key) }

        let animating = presentations[top]
        if animating.transition == .partialCurl {
            try requireFullScreen(
                presented: animating.presented.id, style: animating.style, presenter: animating.presenter)
        }
        let rotation = try rotationForDismissing(&committed, animated: animated)
        var plan = SceneTransitionPlan(
            action: .dismiss, kind: animating.transition, from: animating.presented.id,
            to: presentations[index].presenter, style: animating.style, context: animating.context,
            container: animating.frame, removesPresenterView: presentations[index].style.removesPresenterView,
            edgeSwipe: false, animated: animated, startEvents: [])
        plan.rotation = rotation
        return begin(plan, committing: committed)
    }

    /// UIKit's NSInvalidArgumentException for a partial curl to or from a controller that is
    /// not full screen: the presented one must be `fullScreen`, and so must the presenter (the
    /// window's root or a full-screen presented controller). ScenePresentationVersionTests.
    private func requireFullScreen(presented: String, style: PresentationStyle, presenter: String) throws(SceneError) {
        let presenterIndex = hierarchy.presentationIndex(ofPresented: presenter)
        let presenterStyle = presenterIndex.map { hierarchy.presentations[$0].style }
        let presenterIsFullScreen = presenter == hierarchy.root.id || presenterStyle == .fullScreen
        guard style != .fullScreen || !presenterIsFullScreen else { return }
        let culprit = style == .fullScreen ? presenter : presented
        throw .uncaughtException(
            name: "NSInvalidArgumentException",
            reason: "Application tried to present UIModalTransitionStylePartialCurl to or from non-fullscreen view "
                + "controller \(culprit).")
    }

    /// A `present` while a transition is in flight: `busy` (with UIKit's "while a presentation
    /// is in progress" warning when a present or dismiss is in flight and `from` is known) —
    /// except seed 000's crash. On iOS 8
    /// (with `doublePresentation: .exception`), the same presenter presenting again while its
    /// first present turns the interface raised NSInvalidArgumentException from the rotation
    /// code ("attempt to insert nil object from objects[0]"); later releases tolerate it.
    /// ScenePresentationVersionTests.
    private func presentingWhileBusy(
        _ pending: Pending, _ reference: SceneControllerReference, from: String?
    ) -> SceneError {
        let plan = pending.plan
        let source = from ?? topMost
        guard options.doublePresentation == .exception, options.ios == .ios8, plan.action == .present,
            plan.rotation != nil, hierarchy.contains(source), hierarchy.layerRoot(of: source) == plan.from
        else {
            guard plan.action == .present || plan.action == .dismiss, hierarchy.contains(source) else {
                return .busy(plan.action)
            }
            let attempted =
                switch reference {
                case .controller(let controller): controller.id
                case .id(let id): id
                }
            return .presentingWhileBusy(
                attempted: attempted, on: hierarchy.layerRoot(of: source), source: source, inFlight: plan.action,
                ios: options.ios)
        }
        return .uncaughtException(
            name: "NSInvalidArgumentException",
            reason: "*** -[__NSPlaceholderArray initWithObjects:count:]: attempt to insert nil object from objects[0]")
    }
}
