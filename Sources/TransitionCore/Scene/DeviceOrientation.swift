/// `UIDeviceOrientation`: how the physical device is held. Raw values are UIKit's names (the
/// wire's); `uikitValue` is UIKit's number (0…6).
public enum DeviceOrientation: String, Equatable, Hashable, Sendable, CaseIterable {
    /// At launch, before the accelerometer reports (the sandbox starts in `portrait`).
    case unknown
    /// Upright, the home button at the bottom.
    case portrait
    /// Upside down, the home button at the top.
    case portraitUpsideDown
    /// Turned counter-clockwise: the home button on the right.
    case landscapeLeft
    /// Turned clockwise: the home button on the left.
    case landscapeRight
    /// Flat on its back.
    case faceUp
    /// Flat on its face.
    case faceDown

    /// UIKit's raw value (`UIDeviceOrientation`).
    public var uikitValue: Int {
        switch self {
        case .unknown: return 0
        case .portrait: return 1
        case .portraitUpsideDown: return 2
        case .landscapeLeft: return 3
        case .landscapeRight: return 4
        case .faceUp: return 5
        case .faceDown: return 6
        }
    }

    public init?(uikitValue: Int) {
        guard let found = Self.allCases.first(where: { $0.uikitValue == uikitValue }) else { return nil }
        self = found
    }

    /// The interface orientation that keeps the content upright on a device held this way:
    /// "rotating the device to the left requires rotating the content to the right", so device
    /// `landscapeLeft` is interface `landscapeRight` and vice versa. Nil for `unknown`, `faceUp`
    /// and `faceDown`, which never rotate the interface (REFERENCE §4).
    public var interfaceOrientation: InterfaceOrientation? {
        switch self {
        case .portrait: return .portrait
        case .portraitUpsideDown: return .portraitUpsideDown
        case .landscapeLeft: return .landscapeRight
        case .landscapeRight: return .landscapeLeft
        case .unknown, .faceUp, .faceDown: return nil
        }
    }

    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
}
