/// A controller's orientation properties, typed. The stored fields keep UIKit's numbers
/// (`supportedOrientations`: a mask, `preferredOrientationForPresentation`: 1…4).
extension SceneController {
    /// `supportedInterfaceOrientations`, `shouldAutorotate`,
    /// `preferredInterfaceOrientationForPresentation` together.
    public struct OrientationProperties: Equatable, Hashable, Sendable {
        /// nil = the device's default (phone `allButUpsideDown`, tablet `all`).
        public var supportedOrientations: OrientationMask?
        public var shouldAutorotate: Bool
        public var preferredOrientation: InterfaceOrientation?

        public init(
            supportedOrientations: OrientationMask? = nil, shouldAutorotate: Bool = true,
            preferredOrientation: InterfaceOrientation? = nil
        ) {
            self.supportedOrientations = supportedOrientations
            self.shouldAutorotate = shouldAutorotate
            self.preferredOrientation = preferredOrientation
        }
    }

    /// `supportedOrientations` as a mask; nil = the device default.
    public var supportedMask: OrientationMask? {
        get { supportedOrientations.map(OrientationMask.init(rawValue:)) }
        set { supportedOrientations = newValue?.rawValue }
    }

    /// `preferredOrientationForPresentation` as an orientation (nil = none, or an invalid number,
    /// which `validate()` refuses).
    public var preferredOrientation: InterfaceOrientation? {
        get { preferredOrientationForPresentation.flatMap(InterfaceOrientation.init(uikitValue:)) }
        set { preferredOrientationForPresentation = newValue?.uikitValue }
    }

    public var orientationProperties: OrientationProperties {
        get {
            OrientationProperties(
                supportedOrientations: supportedMask, shouldAutorotate: shouldAutorotate,
                preferredOrientation: preferredOrientation)
        }
        set {
            supportedMask = newValue.supportedOrientations
            shouldAutorotate = newValue.shouldAutorotate
            preferredOrientation = newValue.preferredOrientation
        }
    }

    /// Masks use only the four orientation bits (0 is allowed here: it is refused as
    /// `no-common-orientation` when such a controller decides); a preferred orientation is 1…4.
    func validateOrientations() throws(SceneError) {
        if let raw = supportedOrientations, !OrientationMask(rawValue: raw).isValid {
            throw .invalidScene(
                "\(id)'s supportedOrientations \(raw) has bits other than portrait 2, portraitUpsideDown 4, landscapeRight 8, landscapeLeft 16"
            )
        }
        if let raw = preferredOrientationForPresentation, InterfaceOrientation(uikitValue: raw) == nil {
            throw .invalidScene(
                "\(id)'s preferredOrientationForPresentation \(raw) is not an interface orientation (1…4)")
        }
    }
}

extension SceneController {
    /// `validateOrientations()` for this controller and every controller below it.
    func validateOrientationsInTree() throws(SceneError) {
        try validateOrientations()
        for child in stack ?? [] { try child.validateOrientationsInTree() }
    }
}
