import TransitionCore

extension SceneSession {
    /// Something that may turn the interface (`SceneSession.orient`).
    enum OrientationChange: Equatable {
        /// The physical device turned.
        case device(DeviceOrientation)
        /// `attemptRotationToDeviceOrientation()`.
        case attempt
        /// A controller's orientation properties changed (nothing turns by itself).
        case update(String, mask: OrientationMask?, shouldAutorotate: Bool, preferred: InterfaceOrientation?)
        /// iOS 16+: `setNeedsUpdateOfSupportedInterfaceOrientations()`.
        case updateSupported
        /// iOS 16+: `UIWindowScene.requestGeometryUpdate(.iOS(interfaceOrientations:))`.
        case requestGeometry(OrientationMask)
    }
}
