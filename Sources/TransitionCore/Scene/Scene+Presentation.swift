extension Scene {
    /// `present(_:animated:completion:)` called on `from` (default: the top-most controller).
    ///
    /// `style` and `transition` override the controller's `presentationStyle` and
    /// `transitionStyle`. The context styles walk up from `from` (navigation containers, then
    /// presenting controllers) to the first controller that `definesPresentationContext`; its
    /// transition style wins if it `providesPresentationContextTransitionStyle`; with none the
    /// presentation is full screen from `from`'s layer (REFERENCE §3): `currentContext` becomes
    /// `fullScreen`, `overCurrentContext` `overFullScreen`. The other styles present
    /// from the root of `from`'s presentation layer (`presentingViewController`).
    ///
    /// A full-screen presentation may turn the interface (`plan.rotation`; Scene+Orientation.swift).
    ///
    /// Errors, checked in this order: `busy`, `unknown-controller` (`from`, or an unknown id),
    /// `invalid-scene`, `already-presented`, `already-presenting`, `not-in-window`,
    /// `no-common-orientation`, `unsupported-preferred-orientation`.
    @discardableResult
    public mutating func present(
        _ reference: SceneControllerReference, from: String? = nil, style: PresentationStyle? = nil,
        transition: TransitionKind? = nil, animated: Bool = true
    ) throws(SceneError) -> SceneTransitionPlan {
        if let pending { throw .busy(pending.plan.action) }
        let source = from ?? topMost
        guard hierarchy.contains(source) else { throw .unknownController(source) }
        let controller = try resolve(reference, pushing: false)
        if let index = hierarchy.presentationIndex(presentedBy: source) {
            throw .alreadyPresenting(
                attempted: controller.id, on: source, presented: hierarchy.presentations[index].presented.id)
        }
        guard hierarchy.appeared().contains(source) else {
            throw .notInWindow(attempted: controller.id, on: source)
        }

        var style = style ?? controller.presentationStyle
        var kind = transition ?? controller.transitionStyle
        var presenter = hierarchy.layerRoot(of: source)
        var frame = hierarchy.frame(for: style)
        if style.isContextBased {
            if let context = hierarchy.presentationContext(from: source) {
                if let index = hierarchy.presentations.firstIndex(where: { $0.presenter == context }) {
                    throw .alreadyPresenting(
                        attempted: controller.id, on: context, presented: hierarchy.presentations[index].presented.id)
                }
                presenter = context
                frame = hierarchy.frame(of: context)
                if let definer = hierarchy.controller(context), definer.providesPresentationContextTransitionStyle {
                    kind = definer.transitionStyle
                }
            } else {
                // No context: the window's root acts as one (UIKit) — the whole screen, from
                // `from`'s layer; `over…` keeps the views beneath.
                style = style == .overCurrentContext ? .overFullScreen : .fullScreen
                frame = hierarchy.bounds
            }
        }

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
    /// Errors: `busy`, `unknown-controller`, `nothing-presented`, `no-common-orientation`.
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

        let rotation = try rotationForDismissing(&committed, animated: animated)
        let animating = presentations[top]
        var plan = SceneTransitionPlan(
            action: .dismiss, kind: animating.transition, from: animating.presented.id,
            to: presentations[index].presenter, style: animating.style, context: animating.context,
            container: animating.frame, removesPresenterView: presentations[index].style.removesPresenterView,
            edgeSwipe: false, animated: animated, startEvents: [])
        plan.rotation = rotation
        return begin(plan, committing: committed)
    }
}
