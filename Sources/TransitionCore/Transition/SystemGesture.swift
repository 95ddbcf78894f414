/// Which of UIKit's own gestures drives a transition a scene armed by itself. Its release is
/// UIKit's rule for that gesture, not the app's (docs/ENGINE.md, "System gestures").
public enum SystemGesture: String, Equatable, Hashable, Sendable {
    /// The navigation controller's edge-swipe pop (`interactivePopGestureRecognizer`, iOS 7+):
    /// `EdgePopRelease` over `EdgePopStatistics`.
    case edgePop
    /// A page or form sheet's swipe-down (iOS 13+): `SheetSwipeRelease`.
    case sheetSwipe
    /// A zoom-presented (or zoom-pushed) controller's drag down (iOS 18+): `ZoomDismissRelease`.
    case zoomDismiss
}
