/// Orientation and rotation (docs/SCENE.md, "Orientation and rotation"): the
/// device turns, the masks are read, the interface rotates as a transition of its own.
extension Scene {
    // MARK: - Reading

    public var interfaceOrientation: InterfaceOrientation { hierarchy.interfaceOrientation }
    /// The window's bounds in interface coordinates (width and height swapped in landscape);
    /// every frame of the scene is in this space.
    public var windowBounds: Rect { hierarchy.bounds }
    /// Who decides the orientation now and what is allowed (read afresh from the masks).
    public var orientationResolution: OrientationResolution { hierarchy.orientationResolution(options: options) }
    public var allowedOrientations: OrientationMask { orientationResolution.allowed }

    public var orientationState: SceneOrientationState {
        SceneOrientationState(
            deviceOrientation: deviceOrientation, interfaceOrientation: interfaceOrientation,
            windowBounds: windowBounds,
            resolution: orientationResolution)
    }

    // MARK: - Operations

    /// The physical device turned (`UIDeviceOrientationDidChangeNotification`). The new device
    /// orientation is recorded; the interface autorotates to it when it maps to an interface
    /// orientation (not face up, face down, unknown), the deciding controller's
    /// `shouldAutorotate` is true and the orientation is allowed. If the current orientation
    /// is no longer allowed (a mask changed without `attemptRotationToDeviceOrientation`), it
    /// settles on an allowed one (`OrientationResolution.settle`). Returns the rotation, or nil.
    ///
    /// During a transition the device orientation is recorded and nothing rotates (the
    /// interface catches up at the next device change or `attemptRotationToDeviceOrientation`).
    ///
    /// With nothing allowed (a mask updated, or a push under `containerForwardsOrientation`
    /// leaving a decider whose mask shares nothing with the app's), this is when UIKit asks and
    /// throws — only if the decider's `shouldAutorotate` is YES (always from iOS 16): then
    /// `no-common-orientation` and nothing changes, the device not recorded either (the app
    /// would have terminated; the sandbox keeps the scene to fix). With `shouldAutorotate` NO
    /// (the standard workaround) the device is recorded and nothing turns
    /// (`SceneOrientationVersionTests.noCommonOrientationWhenUIKitAsks`).
    @discardableResult
    public mutating func deviceDidChange(to device: DeviceOrientation) throws(SceneError) -> RotationPlan? {
        let resolution = orientationResolution
        let asks = pending == nil && device.interfaceOrientation != nil && resolution.shouldAutorotate
        if asks, resolution.allowed.isEmpty { throw Self.noCommonOrientation(resolution) }
        deviceOrientation = device
        guard asks else { return nil }
        requestedOrientations = nil  // the device turned: it decides again
        return autorotate(resolution)
    }

    /// `UIViewController.attemptRotationToDeviceOrientation()`: re-reads the masks and rotates
    /// to the device's orientation at once if the decider autorotates and allows it (or, if the
    /// current orientation is no longer allowed, to the one `settle` picks). Returns the
    /// rotation, or nil.
    ///
    /// Errors: `busy`, `no-common-orientation`.
    @discardableResult
    public mutating func attemptRotationToDeviceOrientation() throws(SceneError) -> RotationPlan? {
        if let pending { throw .busy(pending.plan.action) }
        let resolution = orientationResolution
        guard resolution.shouldAutorotate else { return nil }
        if resolution.allowed.isEmpty { throw Self.noCommonOrientation(resolution) }
        // A geometry request holds while what it chose is allowed: re-reading the masks (or a
        // transition ending) does not turn back to the device (`…requestGeometryUpdate`).
        if let requested = requestedOrientations, requested.contains(interfaceOrientation),
            resolution.allowed.contains(interfaceOrientation)
        {
            return nil
        }
        return autorotate(resolution)
    }

    /// Changes a controller's `supportedInterfaceOrientations`, `shouldAutorotate` and
    /// `preferredInterfaceOrientationForPresentation` (all three replaced). Nothing rotates: a
    /// changed mask is read at the next device change, `attemptRotationToDeviceOrientation`,
    /// or presentation (seed 000's example). A mask that leaves nothing allowed is accepted:
    /// UIKit only throws when it next asks (`deviceDidChange`, a present, an attempt).
    ///
    /// Errors: `busy`, `unknown-controller` (not in the hierarchy), `invalid-scene` (a mask
    /// with other bits).
    public mutating func updateController(
        _ id: String, supportedOrientations: OrientationMask?, shouldAutorotate: Bool,
        preferredOrientation: InterfaceOrientation?
    ) throws(SceneError) {
        if let pending { throw .busy(pending.plan.action) }
        guard hierarchy.contains(id) else { throw .unknownController(id) }
        if let mask = supportedOrientations, !mask.isValid {
            throw .invalidScene(
                "\(id)'s supportedOrientations \(mask.rawValue) has bits other than portrait 2, portraitUpsideDown 4, landscapeRight 8, landscapeLeft 16"
            )
        }
        var updated = hierarchy
        updated.updateOrientation(
            of: id,
            to: SceneController.OrientationProperties(
                supportedOrientations: supportedOrientations, shouldAutorotate: shouldAutorotate,
                preferredOrientation: preferredOrientation))
        hierarchy = updated
        for tree in hierarchy.trees { remember(tree) }
    }

    /// iOS 16+ `setNeedsUpdateOfSupportedInterfaceOrientations()`: the masks are read again
    /// and the interface turns as `attemptRotationToDeviceOrientation()` did (which iOS 16
    /// deprecates for it; `shouldAutorotate` is no longer consulted). Before 16 the method does
    /// not exist: `unavailable-in-ios`. Errors also: `busy`, `no-common-orientation`.
    @discardableResult
    public mutating func updateSupportedInterfaceOrientations() throws(SceneError) -> RotationPlan? {
        try requireIOS(16, "setNeedsUpdateOfSupportedInterfaceOrientations()")
        return try attemptRotationToDeviceOrientation()
    }

    /// iOS 16+ `UIWindowScene.requestGeometryUpdate(.iOS(interfaceOrientations: requested))`:
    /// the interface turns to one of `requested` that the decider allows, whatever the device
    /// — the current one if it is among them, else the device's, else the first in UIKit's
    /// order. None allowed: UIKit's error handler gets UISceneErrorDomain 101
    /// (`geometry-update-refused`) and nothing changes. Errors also: `unavailable-in-ios`
    /// (before 16), `busy`, `invalid-scene` (an empty mask or other bits),
    /// `no-common-orientation` (`SceneOrientationVersionTests.requestGeometryUpdate`).
    @discardableResult
    public mutating func requestGeometryUpdate(_ requested: OrientationMask) throws(SceneError) -> RotationPlan? {
        try requireIOS(16, "requestGeometryUpdate(_:errorHandler:)")
        if let pending { throw .busy(pending.plan.action) }
        guard requested.isValid, !requested.isEmpty else {
            throw .invalidScene("interfaceOrientations \(requested.rawValue) must be a non-empty orientation mask")
        }
        let resolution = orientationResolution
        if resolution.allowed.isEmpty { throw Self.noCommonOrientation(resolution) }
        let granted = resolution.allowed.intersection(requested)
        guard let first = granted.orientations.first else {
            throw .geometryUpdateRefused(requested: requested, supported: resolution.allowed)
        }
        let target: InterfaceOrientation
        if granted.contains(interfaceOrientation) {
            target = interfaceOrientation
        } else if let upright = deviceOrientation.interfaceOrientation, granted.contains(upright) {
            target = upright
        } else {
            target = first
        }
        requestedOrientations = requested
        return rotate(to: target)
    }

    private func requireIOS(_ major: Int, _ api: String) throws(SceneError) {
        guard options.ios.atLeast(major) else { throw .unavailableInIOS(api: api, since: major, ios: options.ios) }
    }

    // MARK: - Shared steps

    /// At launch: the options' masks must be valid and something allowed; the interface
    /// starts in portrait if allowed, else as `settle` picks (device portrait).
    mutating func settleLaunchOrientation() throws(SceneError) {
        for (name, mask) in [
            ("appOrientations", options.appOrientations), ("windowOrientations", options.windowOrientations),
        ] {
            if let mask, !mask.isValid {
                throw .invalidScene(
                    "\(name) \(mask.rawValue) has bits other than portrait 2, portraitUpsideDown 4, landscapeRight 8, landscapeLeft 16"
                )
            }
        }
        if let duration = options.rotationDuration, !SceneOptions.rotationDurationRange.contains(duration) {
            let most = SceneOptions.rotationDurationRange.upperBound
            throw .invalidScene("rotationDuration must be a number of seconds in 0…\(most)")
        }
        let resolution = orientationResolution
        // With nothing allowed UIKit throws only if it asks (shouldAutorotate YES); else the
        // interface stays in the device's portrait.
        guard let start = resolution.settle(current: .portrait, device: deviceOrientation) else {
            guard !resolution.shouldAutorotate else { throw Self.noCommonOrientation(resolution) }
            return
        }
        hierarchy = hierarchy.reoriented(to: start)
    }

    /// A present: if the presentation fills the window (`fullScreen`, `overFullScreen`), its
    /// controller decides; its preferred orientation must be allowed and is shown; without one
    /// the current orientation is kept if allowed, else `settle`. Turns `committed`.
    func rotationForPresenting(_ committed: inout SceneHierarchy, style: PresentationStyle, animated: Bool)
        throws(SceneError) -> RotationPlan?
    {
        guard style == .fullScreen || style == .overFullScreen else { return nil }
        let resolution = committed.orientationResolution(options: options)
        if resolution.allowed.isEmpty {
            // UIKit asks only a controller that autorotates; one that does not keeps the orientation.
            if resolution.shouldAutorotate { throw Self.noCommonOrientation(resolution) }
            return nil
        }
        let target: InterfaceOrientation
        if let preferred = resolution.preferred {
            guard resolution.allowed.contains(preferred) else {
                throw .unsupportedPreferredOrientation(
                    controller: resolution.decider, preferred: preferred, allowed: resolution.allowed)
            }
            target = preferred
        } else {
            target = resolution.settle(current: committed.interfaceOrientation, device: deviceOrientation)!
        }
        return turn(&committed, to: target, animated: animated)
    }

    /// A dismiss: if another controller now fills the window, its masks are read; the
    /// current orientation is kept if allowed, else `settle` (the device's if allowed…).
    func rotationForDismissing(_ committed: inout SceneHierarchy, animated: Bool) throws(SceneError) -> RotationPlan? {
        guard committed.fullScreenController != hierarchy.fullScreenController else { return nil }
        let resolution = committed.orientationResolution(options: options)
        guard let target = resolution.settle(current: committed.interfaceOrientation, device: deviceOrientation) else {
            if resolution.shouldAutorotate { throw Self.noCommonOrientation(resolution) }
            return nil
        }
        return turn(&committed, to: target, animated: animated)
    }

    /// A rotation bundled with a present or dismiss: no rotation callbacks (the presented
    /// controller appears in its orientation; the revealed one is laid out as it reappears).
    private func turn(_ committed: inout SceneHierarchy, to target: InterfaceOrientation, animated: Bool)
        -> RotationPlan?
    {
        guard target != committed.interfaceOrientation else { return nil }
        let before = committed
        committed = committed.reoriented(to: target)
        return RotationPlan(
            from: before.interfaceOrientation, to: target, boundsBefore: before.bounds, boundsAfter: committed.bounds,
            quarterTurnDuration: quarterTurnDuration, animated: animated)
    }

    /// The system rotation's duration per quarter turn: the scene's `rotationDuration`, else
    /// the device's (`SceneDevice.rotationDuration`: phone 0.3 s, tablet 0.4 s).
    public var quarterTurnDuration: Double { options.rotationDuration ?? device.rotationDuration }

    /// Autorotation with the masks read: to the device's orientation if allowed, else (the
    /// current one no longer allowed) to the one `settle` picks; nil if nothing changes.
    private mutating func autorotate(_ resolution: OrientationResolution) -> RotationPlan? {
        let current = interfaceOrientation
        let target: InterfaceOrientation
        if let upright = deviceOrientation.interfaceOrientation, resolution.allowed.contains(upright) {
            target = upright
        } else if let settled = resolution.settle(current: current, device: deviceOrientation) {
            target = settled
        } else {
            return nil
        }
        return rotate(to: target)
    }

    /// A rotation of its own (a device turn, an attempt, a geometry request) to `target`, with
    /// the rotation callbacks to every visible controller; nil if already there.
    mutating func rotate(to target: InterfaceOrientation) -> RotationPlan? {
        let current = interfaceOrientation
        guard target != current else { return nil }
        let before = hierarchy
        hierarchy = hierarchy.reoriented(to: target)
        let visible = before.appeared()
        var start: [LifecycleEvent] = []
        var end: [LifecycleEvent] = []
        func each(
            _ callback: LifecycleCallback, size: (String) -> Size? = { _ in nil },
            _ orientation: InterfaceOrientation? = nil
        )
            -> [LifecycleEvent]
        {
            visible.map {
                LifecycleEvent(
                    controller: $0, callback: callback, animated: true, size: size($0), orientation: orientation)
            }
        }
        switch options.rotationCallbacks {
        case .viewWillTransition:
            start =
                each(.viewWillTransition, size: { self.hierarchy.frame(of: $0).size }) + each(.viewWillLayoutSubviews)
        case .legacy:
            start = each(.willRotate, target) + each(.viewWillLayoutSubviews) + each(.willAnimateRotation, target)
            end = each(.didRotate, current)
        }
        return RotationPlan(
            from: current, to: target, boundsBefore: before.bounds, boundsAfter: hierarchy.bounds,
            quarterTurnDuration: quarterTurnDuration, animated: true, startEvents: start, endEvents: end)
    }

    static func noCommonOrientation(_ resolution: OrientationResolution) -> SceneError {
        .noCommonOrientation(
            controller: resolution.decider, supported: resolution.controller, app: resolution.app,
            window: resolution.window)
    }
}
