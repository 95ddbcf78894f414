/// Which pans are UIKit's own gestures: the navigation controller's edge-swipe pop
/// (`interactivePopGestureRecognizer`) and the iOS 13+ sheet's swipe-down. Their releases are
/// UIKit's (`EdgePopRelease`, `SheetSwipeRelease`; docs/ENGINE.md, "System gestures"); the app's
/// own interactive transitions keep `ReleaseRule` (`TransitionConfiguration.releaseRule`).
/// Tested in `SystemGestureReleaseTests`.
public enum SystemGestureRelease {
    /// The gesture `plan` is, armed as the gesture a scene offers by itself: the edge-swipe pop
    /// (`interactivePopGestureRecognizer`, iOS 7+), or the swipe-down of a page or form sheet
    /// from iOS 13 (before 13 sheets had no dismiss gesture: WWDC 2019 "Modernizing Your UI for
    /// iOS 13", session 224). Nil: any other pan drives the app's transition.
    public static func gesture(for plan: SceneTransitionPlan, ios: IOSVersion) -> SystemGesture? {
        switch plan.action {
        case .pop: return plan.edgeSwipe ? .edgePop : plan.kind == .zoom ? .zoomDismiss : nil
        // A sheet modal in presentation resists: its release always cancels (`plan.resists`).
        case .dismiss where plan.kind == .zoom: return .zoomDismiss
        case .dismiss:
            return plan.style?.isSheet == true && ios.atLeast(13) && !plan.resists ? .sheetSwipe : nil
        case .present, .push: return nil
        }
    }
}
