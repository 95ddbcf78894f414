import TransitionCore

extension SceneSession {
    /// Which of UIKit's own gestures drives the plan the engine animates (in flight, else
    /// armed) — an edge-swipe pop, an iOS 13+ sheet's swipe-down — whose release is UIKit's
    /// rather than the app's rules; nil for the app's own pan (`SessionSystemGestureTests`).
    var systemGesture: SystemGesture? {
        guard let plan, flight?.isDefault ?? armed?.isDefault ?? false else { return nil }
        return SystemGestureRelease.gesture(for: plan, ios: scene.options.ios)
    }
}
