/// Behaviours that changed between iOS versions, chosen per scene.
public struct SceneOptions: Equatable, Hashable, Sendable {
    /// What presenting a controller that is already in the hierarchy does.
    public enum DoublePresentation: String, Equatable, Hashable, Sendable, CaseIterable {
        /// UIKit raises NSInvalidArgumentException ("Application tried to present modally an
        /// active controller"); the sandbox refuses with `already-presented`, quoting it, and
        /// changes nothing. The default.
        case refuse
        /// Seed 000's iOS 8 crash: `uncaught-exception` NSInvalidArgumentException (the scene is
        /// still unchanged; the session decides what a crash ends).
        case exception
    }

    /// The iOS release the scene behaves as (IOSVersionTests).
    public var ios: IOSVersion
    public var doublePresentation: DoublePresentation = .refuse
    /// Info.plist's supported orientations; nil = the device default (phone
    /// `allButUpsideDown`, tablet `all`).
    public var appOrientations: OrientationMask?
    /// `application(_:supportedInterfaceOrientationsFor:)`; nil = the app's mask.
    public var windowOrientations: OrientationMask?
    /// A navigation controller that decides the orientation forwards `supportedOrientations`,
    /// `shouldAutorotate` and the preferred orientation to the top of its stack (the seeds'
    /// `topMostViewController` override). Off: the container decides for its children (UIKit).
    public var containerForwardsOrientation: Bool
    /// The rotation callbacks: iOS 8+ `viewWillTransition` or the iOS ≤ 7 sequence (the
    /// default is the version's: `RotationCallbacks.default(for:)`).
    public var rotationCallbacks: RotationCallbacks
    /// The system rotation's duration per quarter turn, seconds (a half turn takes twice it),
    /// within `rotationDurationRange`; nil: the device's (`SceneDevice.rotationDuration`).
    public var rotationDuration: Double?
    /// iOS 26's content swipe is enabled (`interactiveContentPopGestureRecognizer.isEnabled`;
    /// an app turns it off to keep sideways drags for its own content): `Scene.contentPopStart`.
    public var contentPop: Bool

    /// 0 (no animation) to 2 s: ten times a phone's turn is room for slow motion; more would
    /// hold every scene operation `busy` for long (each waits for the turn).
    public static let rotationDurationRange = 0.0...2.0

    public init(
        ios: IOSVersion = .newest, doublePresentation: DoublePresentation = .refuse,
        appOrientations: OrientationMask? = nil,
        windowOrientations: OrientationMask? = nil, containerForwardsOrientation: Bool = false,
        rotationCallbacks: RotationCallbacks? = nil, rotationDuration: Double? = nil, contentPop: Bool = true
    ) {
        self.ios = ios
        self.doublePresentation = doublePresentation
        self.appOrientations = appOrientations
        self.windowOrientations = windowOrientations
        self.containerForwardsOrientation = containerForwardsOrientation
        self.rotationCallbacks = rotationCallbacks ?? .default(for: ios)
        self.rotationDuration = rotationDuration
        self.contentPop = contentPop
    }
}
