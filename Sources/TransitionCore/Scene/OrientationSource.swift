/// Where a bit of the allowed orientations comes from: the app (Info.plist), the window
/// (`application(_:supportedInterfaceOrientationsFor:)`) or a controller's
/// `supportedInterfaceOrientations`.
public enum OrientationSource: Equatable, Hashable, Sendable, CustomStringConvertible {
    case app
    case window
    case controller(String)

    public var description: String {
        switch self {
        case .app: return "app"
        case .window: return "window"
        case .controller(let id): return id
        }
    }
}
