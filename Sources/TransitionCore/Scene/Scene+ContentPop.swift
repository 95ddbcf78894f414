extension Scene {
    /// What iOS 26's content swipe does with a pointer down at `point` (interface coordinates),
    /// the default pop `plan` armed and the pointer outside the edge swipe's band
    /// (SceneContentPopTests).
    ///
    /// Apple, [`interactiveContentPopGestureRecognizer`](https://developer.apple.com/documentation/uikit/uinavigationcontroller/interactivecontentpopgesturerecognizer)
    /// (iOS 26.0+): it "recognizes a gesture on the entire content area of the navigation
    /// controller in cases that are not covered by `interactivePopGestureRecognizer`" when a
    /// person "initially pans horizontally in a leading to trailing direction". The decompile
    /// of iOS 26.1's UIKitCore (github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore):
    /// - `_UINavigationInteractiveTransitionBase` makes it only when
    ///   `isContentBackSwipeEnabled`, with the edge swipe's target and action
    ///   (`handleNavigationTransition:`, so the same release: `EdgePopRelease`), and
    ///   `requireGestureRecognizerToFail:` the edge swipe — the edge pan has priority.
    /// - `_UIParallaxTransitionPanGestureRecognizer _needsDynamicDependentRequirementForGestureRecognizer:`
    ///   makes a scroll view's pan wait for the swipe to fail when the scroll view cannot scroll
    ///   horizontally or its content offset is at its leading minimum (so a vertical scroll view
    ///   and a horizontal one at its leading edge let a rightward pan pop), and otherwise sets
    ///   no requirement: the scroll view's pan, which begins sooner than the swipe's 30 pt,
    ///   takes the touch (inferred from UIKit's exclusion of simultaneous pans). It makes a
    ///   sheet's interactive dismissal wait for the swipe too (`_UISheetInteractionGestureIsForInteractiveDismiss`).
    /// - An app's own pan: nothing in the decompile makes it wait, and it begins at its 10 pt
    ///   before the swipe's 30 pt: inferred, the app's pan takes the touch.
    /// The swipe recognizes on the navigation controller's view; here on its content below the
    /// bar (chosen: the bar's buttons are not modelled). Views are hit-tested top first: the
    /// last listed that contains the point (a controller lists its views back to front).
    public func contentPopStart(popping plan: SceneTransitionPlan, at point: Point) -> ContentPopStart {
        guard options.ios.atLeast(26), options.contentPop, plan.action == .pop, plan.edgeSwipe,
            point.isFinite, plan.container.contains(point), let top = controller(plan.from),
            let origin = frame(of: plan.from)
        else { return .unavailable }
        let local = Point(x: point.x - origin.minX, y: point.y - origin.minY)
        guard let hit = top.views.last(where: { $0.frame.contains(local) }) else { return .decides }
        switch hit.kind {
        case .view, .verticalScroll: return .decides
        case .horizontalScroll: return hit.atLeadingEdge ? .decides : .scrolls(hit.id)
        case .pan: return .appPan(hit.id)
        }
    }
}
