/// A height where a sheet rests (`UISheetPresentationController.Detent`): the system's
/// `medium` and `large` (iOS 15) or a custom height (iOS 16, `.custom(identifier:resolver:)`),
/// measured in points within the sheet's safe area (above its bottom inset), as a custom
/// resolver returns it.
/// SheetDetentTests hold the rules.
public enum SheetDetent: Equatable, Hashable, Sendable {
    case medium
    case large
    case custom(id: String, height: Double)

    /// A custom height is at least this many points (UIKit takes any positive value: chosen).
    /// The sheet's dismissal animates a container of the card's height, and a transition's
    /// container is at least `TransitionConfiguration`'s 100 pt: a shorter detent refused every
    /// present and dismiss of its sheet (SceneSheetWireTests.aShortCustomDetentIsRefused).
    public static let minimumCustomHeight = 100.0
    /// A custom height above this is refused outright (it is then clamped to the large height,
    /// as UIKit clamps a resolver's value to `maximumDetentValue`).
    public static let maximumCustomHeight = 10_000.0

    /// `selectedDetentIdentifier`'s value: "medium", "large", or the custom id.
    public var identifier: String {
        switch self {
        case .medium: "medium"
        case .large: "large"
        case .custom(let id, _): id
        }
    }

    /// The card's height above the container's bottom edge at this detent: the detent's value,
    /// a height within the sheet's bottom safe area, plus that inset. Apple,
    /// `customDetentWithIdentifier:resolver:`: the value is "a height within the safe area of the
    /// sheet", and `maximumDetentValue` ("The maximum value a detent can have") is the large
    /// height less the bottom inset (753 pt on an 844 pt phone: 787 − 34)
    /// (https://developer.apple.com/documentation/uikit/uisheetpresentationcontroller/detent/custom(identifier:resolver:)).
    ///
    /// Medium: Apple says only "approximately half the height of the screen"
    /// (https://developer.apple.com/documentation/uikit/uisheetpresentationcontroller/detent/medium());
    /// the ratio is a third-party reading (the Charon reimplementation): 0.56 × `maximumDetentValue`,
    /// 0.63 at or below a 568 pt container — card top ≈ 388 on an 844 pt phone. Custom: its value,
    /// at most `maximumDetentValue`. SheetDetentTests "detent values lie within the safe area".
    public func height(large: Double, container: Double, bottomInset: Double) -> Double {
        let maximum = max(large - bottomInset, 0)
        return bottomInset + min(value(maximum: maximum, container: container), maximum)
    }

    /// The detent's value (height within the safe area) given `maximumDetentValue`.
    func value(maximum: Double, container: Double) -> Double {
        switch self {
        case .large: maximum
        case .medium: maximum * (container <= Self.smallContainer ? 0.63 : 0.56)
        case .custom(_, let height): height
        }
    }

    /// A container at or below this height takes the larger medium ratio (third-party, Charon).
    static let smallContainer = 568.0
}
