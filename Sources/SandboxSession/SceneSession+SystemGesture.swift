import TransitionCore

extension SceneSession {
    /// Whether the plan the engine animates (in flight, else armed) is driven by one of UIKit's
    /// own gestures, whose release is `SystemGestureRelease`'s (an edge-swipe pop, an iOS 13+
    /// sheet's swipe-down), rather than the app's rules (`SessionSystemGestureTests`).
    var drivesSystemGesture: Bool {
        guard let plan, flight?.isDefault ?? armed?.isDefault ?? false else { return false }
        return SystemGestureRelease.drives(plan, ios: scene.options.ios)
    }
}
