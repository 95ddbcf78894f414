/// `UIInterfaceOrientation`: which way the content is drawn. Raw values are UIKit's names (the
/// wire's); `uikitValue` is UIKit's number (1…4, equal to the device orientation it matches).
public enum InterfaceOrientation: String, Equatable, Hashable, Sendable, CaseIterable {
    case portrait
    case portraitUpsideDown
    /// The home button on the left (the device turned clockwise, device `landscapeRight`).
    case landscapeLeft
    /// The home button on the right (the device turned counter-clockwise, device `landscapeLeft`).
    case landscapeRight

    /// UIKit's raw value: portrait 1, upside down 2, landscape right 3, landscape left 4.
    public var uikitValue: Int {
        switch self {
        case .portrait: return 1
        case .portraitUpsideDown: return 2
        case .landscapeRight: return 3
        case .landscapeLeft: return 4
        }
    }

    public init?(uikitValue: Int) {
        guard let found = Self.allCases.first(where: { $0.uikitValue == uikitValue }) else { return nil }
        self = found
    }

    /// The four in UIKit's numeric order (portrait, upside down, landscape right, landscape
    /// left): the order a fallback picks the first allowed one in.
    public static let uikitOrder: [InterfaceOrientation] = [
        .portrait, .portraitUpsideDown, .landscapeRight, .landscapeLeft,
    ]

    /// `1 << uikitValue`.
    public var mask: OrientationMask { OrientationMask(rawValue: 1 << uikitValue) }

    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }

    /// The device orientation that shows this interface upright (the inverse of
    /// `DeviceOrientation.interfaceOrientation`).
    public var deviceOrientation: DeviceOrientation {
        switch self {
        case .portrait: return .portrait
        case .portraitUpsideDown: return .portraitUpsideDown
        case .landscapeLeft: return .landscapeRight
        case .landscapeRight: return .landscapeLeft
        }
    }

    /// The root view's rotation relative to the device, in radians, `CGAffineTransformMakeRotation`'s
    /// sign (positive turns clockwise on a y-down screen): portrait 0, landscape left −π/2 (the
    /// seed's `[0, −1, 1, 0, 0, 0]`), landscape right +π/2, upside down π.
    public var angle: Double {
        switch self {
        case .portrait: return 0
        case .landscapeLeft: return -Double.pi / 2
        case .landscapeRight: return Double.pi / 2
        case .portraitUpsideDown: return Double.pi
        }
    }

    /// The root view's transform relative to the device: `rotation(angle)` with exact
    /// entries (no `cos`/`sin` rounding): identity, `[0, −1, 1, 0, 0, 0]` (landscape left),
    /// `[0, 1, −1, 0, 0, 0]` (landscape right), `[−1, 0, 0, −1, 0, 0]` (upside down).
    public var rootTransform: AffineTransform {
        switch self {
        case .portrait: return .identity
        case .landscapeLeft: return AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0)
        case .landscapeRight: return AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
        case .portraitUpsideDown: return AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0)
        }
    }

    /// Maps a point in this interface's coordinates (origin at the top-left of the upright
    /// content, y down, the window's bounds swapped in landscape) to the device's portrait
    /// screen of `screen` size: the root transform about the centres, as UIKit applies it to
    /// the root view (bounds centred on the screen).
    public func deviceTransform(screen: Size) -> AffineTransform {
        let bounds = isLandscape ? Size(width: screen.height, height: screen.width) : screen
        return AffineTransform(translationX: -bounds.width / 2, y: -bounds.height / 2)
            .concatenating(rootTransform)
            .concatenating(AffineTransform(translationX: screen.width / 2, y: screen.height / 2))
    }
}
