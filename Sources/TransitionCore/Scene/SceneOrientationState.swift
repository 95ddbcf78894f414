/// The orientation part of `scene-state`: device versus interface, the window's bounds and
/// the resolved allowed orientations with their sources.
public struct SceneOrientationState: Equatable, Sendable {
    public var deviceOrientation: DeviceOrientation
    public var interfaceOrientation: InterfaceOrientation
    /// The window's bounds in interface coordinates (width and height swapped in landscape).
    public var windowBounds: Rect
    /// Who decides and what is allowed (`allowed`, `sources`).
    public var resolution: OrientationResolution

    public init(
        deviceOrientation: DeviceOrientation, interfaceOrientation: InterfaceOrientation, windowBounds: Rect,
        resolution: OrientationResolution
    ) {
        self.deviceOrientation = deviceOrientation
        self.interfaceOrientation = interfaceOrientation
        self.windowBounds = windowBounds
        self.resolution = resolution
    }

    /// A phone in portrait with a root "" and every default (the placeholder before a scene
    /// fills it in).
    public static let placeholder = SceneOrientationState(
        deviceOrientation: .portrait, interfaceOrientation: .portrait, windowBounds: SceneDevice.phone.bounds,
        resolution: OrientationResolution(
            app: .allButUpsideDown, window: .allButUpsideDown, fullScreenController: "", decider: "",
            controller: .allButUpsideDown, shouldAutorotate: true, preferred: nil))

    public var allowed: OrientationMask { resolution.allowed }
}
