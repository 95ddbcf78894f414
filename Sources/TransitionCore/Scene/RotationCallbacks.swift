/// Which rotation callbacks a rotation sends its visible controllers (`SceneOptions.rotationCallbacks`).
public enum RotationCallbacks: String, Equatable, Hashable, Sendable, CaseIterable {
    /// iOS 8+: `viewWillTransition(to:with:)` with each controller's new size, then
    /// `viewWillLayoutSubviews` as the bounds change. The default.
    case viewWillTransition
    /// iOS ≤ 7 (seeds 002, 004): `willRotate(to:duration:)`, the bounds change
    /// (`viewWillLayoutSubviews`), `willAnimateRotation(to:duration:)` inside the animation,
    /// the animation, then `didRotate(from:)` when it ends.
    case legacy

    /// The version's sequence: `.legacy` on iOS 7 (`willRotate(to:duration:)` and its
    /// companions are what iOS 7 sends; iOS 8 deprecated them for `viewWillTransition(to:with:)`,
    /// Apple's UIViewController documentation), `.viewWillTransition` from 8.
    /// (`SceneOrientationVersionTests.callbacksByVersion`).
    public static func `default`(for ios: IOSVersion) -> RotationCallbacks {
        ios.atLeast(8) ? .viewWillTransition : .legacy
    }
}
