/// Who decides the interface orientation right now, and what is allowed: the app's mask ∩ the
/// window's ∩ the deciding controller's (REFERENCE §4). The deciding controller is the
/// top-most controller that fills the window — the root, or the last controller presented
/// `fullScreen` or `overFullScreen` — or, when `SceneOptions.containerForwardsOrientation`
/// is on and that controller is a navigation controller, the top of its stack (the seeds'
/// `topMostViewController` pattern).
public struct OrientationResolution: Equatable, Hashable, Sendable {
    /// Info.plist's mask (`SceneOptions.appOrientations`, default the device's).
    public var app: OrientationMask
    /// The window's mask (`SceneOptions.windowOrientations`, default the app's).
    public var window: OrientationMask
    /// The root or the top-most controller presented full screen.
    public var fullScreenController: String
    /// The controller whose `supportedOrientations`, `shouldAutorotate` and preferred
    /// orientation count: `fullScreenController`, or its top child when it forwards.
    public var decider: String
    /// The decider's mask (its `supportedOrientations`, or the device default when nil).
    public var controller: OrientationMask
    /// The decider's `shouldAutorotate`.
    public var shouldAutorotate: Bool
    /// The decider's `preferredInterfaceOrientationForPresentation`.
    public var preferred: InterfaceOrientation?
    /// What the hardware can show: a Face ID phone never turns upside down (phone
    /// `allButUpsideDown`, tablet `all`). Apple: the controller's mask is intersected with "the
    /// device's supported orientations".
    public var hardware: OrientationMask
    /// The window's mask was given (`application(_:supportedInterfaceOrientationsFor:)`): it
    /// *replaces* Info.plist's ("returns the total set of interface orientations supported by
    /// the app"; seed 001's landscape push with a portrait-only plist relies on it).
    public var windowReplacesApp: Bool

    public init(
        app: OrientationMask, window: OrientationMask, fullScreenController: String, decider: String,
        controller: OrientationMask, shouldAutorotate: Bool, preferred: InterfaceOrientation?,
        hardware: OrientationMask = .all, windowReplacesApp: Bool = false
    ) {
        self.hardware = hardware
        self.windowReplacesApp = windowReplacesApp
        self.app = app
        self.window = window
        self.fullScreenController = fullScreenController
        self.decider = decider
        self.controller = controller
        self.shouldAutorotate = shouldAutorotate
        self.preferred = preferred
    }

    /// hardware ∩ the app's (Info.plist, or the window's that replaces it) ∩ controller; empty
    /// is `no-common-orientation`.
    public var allowed: OrientationMask { sources.reduce(OrientationMask.all) { $0.intersection($1.mask) } }

    /// The masks that are intersected, with their sources, for the page ("where each bit came
    /// from"): the hardware's, the app's or the window's that replaces it, the controller's.
    public var sources: [(source: OrientationSource, mask: OrientationMask)] {
        let app: [(source: OrientationSource, mask: OrientationMask)] =
            windowReplacesApp ? [(.window, window)] : [(.app, self.app), (.window, window)]
        return [(.hardware, hardware)] + app + [(.controller(decider), controller)]
    }

    /// The sources whose mask lacks `orientation` (empty when it is allowed).
    public func excluding(_ orientation: InterfaceOrientation) -> [OrientationSource] {
        sources.filter { !$0.mask.contains(orientation) }.map(\.source)
    }

    /// The orientation to show when `current` may no longer be allowed: `current` if allowed,
    /// else the device's if allowed, else the preferred one if allowed, else the first allowed
    /// in UIKit's order (portrait, upside down, landscape right, landscape left). Nil only
    /// when nothing is allowed.
    public func settle(current: InterfaceOrientation, device: DeviceOrientation) -> InterfaceOrientation? {
        let allowed = allowed
        if allowed.contains(current) { return current }
        if let upright = device.interfaceOrientation, allowed.contains(upright) { return upright }
        if let preferred, allowed.contains(preferred) { return preferred }
        return allowed.orientations.first
    }
}
