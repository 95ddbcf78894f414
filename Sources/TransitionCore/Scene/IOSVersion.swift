/// The iOS release a scene models (`scene`'s `"ios"`). UIKit's behaviour differs by release;
/// each rule that depends on it reads this and cites its source where it is defined
/// (docs/SCENE.md, "The iOS version"). Apple numbered the releases 7…18, then 26.
public enum IOSVersion: String, Equatable, Hashable, Sendable, CaseIterable, Comparable {
    case ios7 = "7"
    case ios8 = "8"
    case ios9 = "9"
    case ios10 = "10"
    case ios11 = "11"
    case ios12 = "12"
    case ios13 = "13"
    case ios14 = "14"
    case ios15 = "15"
    case ios16 = "16"
    case ios17 = "17"
    case ios18 = "18"
    case ios26 = "26"

    /// The default: the newest release the scene models.
    public static let newest = IOSVersion.ios26

    /// The major version number (7…18, 26).
    public var major: Int { Int(rawValue)! }

    /// At least release `major`: `ios.atLeast(13)`.
    public func atLeast(_ major: Int) -> Bool { self.major >= major }

    public static func < (lhs: IOSVersion, rhs: IOSVersion) -> Bool { lhs.major < rhs.major }
}
