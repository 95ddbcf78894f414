/// Where a bit of the allowed orientations comes from: the app (Info.plist), the window
/// (`application(_:supportedInterfaceOrientationsFor:)`) or a controller's
/// `supportedInterfaceOrientations`.
public enum OrientationSource: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What the device can show (a Face ID phone: not upside down).
    case hardware
    case app
    case window
    case controller(String)

    public var description: String {
        switch self {
        case .hardware: return "hardware"
        case .app: return "app"
        case .window: return "window"
        case .controller(let id): return id
        }
    }
}
