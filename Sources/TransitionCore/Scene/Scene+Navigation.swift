extension Scene {
    /// `pushViewController(_:animated:)` on `navigation` — a navigation controller or a
    /// controller inside one (default: the top-most controller). `transition` defaults to
    /// `push` (from the right, with parallax); a pop replays the push's animator reversed.
    ///
    /// Errors: `busy`, `unknown-controller`, `not-in-navigation`, `invalid-scene` (a navigation
    /// controller pushed), `already-presented` (an id in the hierarchy), `covered`.
    @discardableResult
    public mutating func push(
        _ reference: SceneControllerReference, onto navigation: String? = nil, transition: TransitionKind? = nil,
        animated: Bool = true
    ) throws(SceneError) -> SceneTransitionPlan {
        if let pending { throw .busy(pending.plan.action) }
        let nav = try navigationController(for: navigation)
        let controller = try resolve(reference)
        let top = try visibleChild(of: nav)

        let kind = transition ?? .push
        var committed = hierarchy
        committed.updateStack(ofNavigation: nav) { $0.append(controller) }
        committed.pushKinds[controller.id] = kind == .push ? nil : kind
        let plan = SceneTransitionPlan(
            action: .push, kind: kind, from: top, to: controller.id, style: nil, context: nil,
            container: hierarchy.contentFrame(ofNavigation: nav), removesPresenterView: true, edgeSwipe: false,
            animated: animated, startEvents: [])
        let isNew = if case .controller = reference { true } else { false }
        return begin(plan, committing: committed, introducing: isNew ? controller : nil)
    }

    @discardableResult
    public mutating func push(
        _ controller: SceneController, onto navigation: String? = nil, transition: TransitionKind? = nil,
        animated: Bool = true
    ) throws(SceneError) -> SceneTransitionPlan {
        try push(.controller(controller), onto: navigation, transition: transition, animated: animated)
    }

    /// `popViewController(animated:)` on `navigation` (a navigation controller or a controller
    /// inside one; default: the top-most controller). Interactive pops start at the left edge
    /// (`edgeSwipe`), like `interactivePopGestureRecognizer`.
    ///
    /// Errors: `busy`, `unknown-controller`, `not-in-navigation`, `cannot-pop-root`, `covered`.
    @discardableResult
    public mutating func pop(from navigation: String? = nil, animated: Bool = true) throws(SceneError)
        -> SceneTransitionPlan
    {
        if let pending { throw .busy(pending.plan.action) }
        let nav = try navigationController(for: navigation)
        let stack = hierarchy.controller(nav)?.stack ?? []
        guard stack.count >= 2 else { throw .cannotPopRoot(nav) }
        let top = try visibleChild(of: nav)
        let below = stack[stack.count - 2].id

        var committed = hierarchy
        committed.updateStack(ofNavigation: nav) { $0.removeLast() }
        committed.pushKinds[top] = nil
        let plan = SceneTransitionPlan(
            action: .pop, kind: hierarchy.pushKinds[top] ?? .push, from: top, to: below, style: nil, context: nil,
            container: hierarchy.contentFrame(ofNavigation: nav), removesPresenterView: true, edgeSwipe: true,
            animated: animated, startEvents: [])
        return begin(plan, committing: committed)
    }

    /// The navigation controller `id` names: itself, or the one whose stack holds it.
    private func navigationController(for id: String?) throws(SceneError) -> String {
        let id = id ?? topMost
        guard let controller = hierarchy.controller(id) else { throw .unknownController(id) }
        if controller.isNavigation { return id }
        if let parent = hierarchy.parent(of: id) { return parent }
        throw .notInNavigation(id)
    }

    /// The top of `nav`'s stack, which must be on screen (not covered by a full-screen or
    /// current-context presentation).
    private func visibleChild(of nav: String) throws(SceneError) -> String {
        let top = hierarchy.controller(nav)?.stack?.last?.id ?? nav
        guard hierarchy.appeared().contains(top) else {
            let coverer =
                hierarchy.presentations.first(where: { $0.presenter == top || $0.presenter == nav })?.presented.id
                ?? topMost
            throw .covered(navigation: nav, by: coverer)
        }
        return top
    }
}
