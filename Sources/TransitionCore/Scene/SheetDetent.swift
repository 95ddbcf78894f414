/// A height where a sheet rests (`UISheetPresentationController.Detent`): the system's
/// `medium` and `large` (iOS 15) or a custom height (iOS 16, `.custom(identifier:resolver:)`),
/// measured in points above the container's bottom edge, as a custom resolver returns it.
/// SheetDetentTests hold the rules.
public enum SheetDetent: Equatable, Hashable, Sendable {
    case medium
    case large
    case custom(id: String, height: Double)

    /// A custom height is at least this many points (a sheet shorter than its grabber's band
    /// cannot be dragged; UIKit takes any positive value: chosen).
    public static let minimumCustomHeight = 44.0
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

    /// The card's height at this detent, given the large detent's (`maximumDetentValue`).
    ///
    /// Medium: half the container's height, never above the large one. Apple,
    /// `UISheetPresentationController.Detent.medium()`: "approximately half the height of the
    /// screen" (https://developer.apple.com/documentation/uikit/uisheetpresentationcontroller/detent/medium());
    /// the exact rule is not published — chosen: 0.5 × the window's height (422 pt on an
    /// 844 pt phone). Custom: its height, at most the large one (Apple,
    /// `maximumDetentValue`: "The maximum value a detent can have").
    public func height(large: Double, container: Double) -> Double {
        switch self {
        case .large: large
        case .medium: min(container * 0.5, large)
        case .custom(_, let height): min(height, large)
        }
    }
}
