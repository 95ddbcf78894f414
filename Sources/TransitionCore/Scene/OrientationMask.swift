/// `UIInterfaceOrientationMask`: a set of interface orientations, bit `1 << uikitValue`
/// (portrait 2, upside down 4, landscape right 8, landscape left 16).
public struct OrientationMask: OptionSet, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public init(_ orientations: [InterfaceOrientation]) {
        self.init(rawValue: orientations.reduce(0) { $0 | $1.mask.rawValue })
    }

    public static let portrait = OrientationMask(rawValue: 2)
    public static let portraitUpsideDown = OrientationMask(rawValue: 4)
    public static let landscapeRight = OrientationMask(rawValue: 8)
    public static let landscapeLeft = OrientationMask(rawValue: 16)
    /// 24.
    public static let landscape: OrientationMask = [.landscapeLeft, .landscapeRight]
    /// 30.
    public static let all: OrientationMask = [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight]
    /// 26.
    public static let allButUpsideDown: OrientationMask = [.portrait, .landscapeLeft, .landscapeRight]

    /// The named masks of UIKit, by their Swift names (the wire also accepts these).
    public static let named: [(name: String, mask: OrientationMask)] = [
        ("portrait", .portrait), ("portraitUpsideDown", .portraitUpsideDown),
        ("landscapeLeft", .landscapeLeft), ("landscapeRight", .landscapeRight), ("landscape", .landscape),
        ("all", .all), ("allButUpsideDown", .allButUpsideDown),
    ]

    /// Only the four orientation bits are set (no bit 0, no bit above 4).
    public var isValid: Bool { rawValue & ~Self.all.rawValue == 0 }

    public func contains(_ orientation: InterfaceOrientation) -> Bool { contains(orientation.mask) }

    /// The orientations in the mask, in UIKit's numeric order (portrait, upside down,
    /// landscape right, landscape left).
    public var orientations: [InterfaceOrientation] { InterfaceOrientation.uikitOrder.filter(contains) }

    /// The orientations' names, in UIKit's numeric order.
    public var names: [String] { orientations.map(\.rawValue) }

    /// A mask from orientation names (`portrait`, …) or named masks (`landscape`, `all`,
    /// `allButUpsideDown`); nil if one is unknown.
    public init?(names: [String]) {
        var mask = OrientationMask()
        for name in names {
            if let orientation = InterfaceOrientation(rawValue: name) {
                mask.insert(orientation.mask)
            } else if let named = Self.named.first(where: { $0.name == name }) {
                mask.formUnion(named.mask)
            } else {
                return nil
            }
        }
        self = mask
    }

    /// The default of a controller's `supportedInterfaceOrientations` and of Info.plist:
    /// phone `allButUpsideDown`, tablet `all`.
    public static func deviceDefault(_ device: SceneDevice) -> OrientationMask {
        device == .tablet ? .all : .allButUpsideDown
    }

    public var description: String { "\(rawValue) \(names)" }
}
