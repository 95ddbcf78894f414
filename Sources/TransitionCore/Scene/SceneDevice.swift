/// The device the scene runs on, in portrait. A phone is horizontally compact (sheets become
/// cards that push the presenter back), a tablet regular (centred sheets over a dimmed presenter).
public enum SceneDevice: String, Equatable, Hashable, Sendable, CaseIterable {
    /// iPhone 12–14 class: 390 × 844 pt, status bar / notch safe area 47 pt.
    case phone
    /// iPad Air class: 820 × 1180 pt, status bar 24 pt.
    case tablet

    public var size: Size {
        switch self {
        case .phone: return Size(width: 390, height: 844)
        case .tablet: return Size(width: 820, height: 1180)
        }
    }

    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// The top safe-area inset in portrait.
    public var safeAreaTop: Double {
        switch self {
        case .phone: return 47
        case .tablet: return 24
        }
    }

    /// The bottom safe-area inset in portrait: the home indicator's band. 34 pt on a Face ID phone
    /// (what `safeAreaInsets.bottom` reports on iPhone 12–14 in portrait — Apple publishes no
    /// constant: a measured value; `maximumDetentValue` there reads 753 = 787 − 34), 20 pt on an
    /// iPad with no Home button (measured likewise). Sheet detents are measured above it
    /// (SheetDetent.height; SheetDetentTests.detentValuesLieWithinTheSafeArea).
    public var safeAreaBottom: Double {
        switch self {
        case .phone: return 34
        case .tablet: return 20
        }
    }

    /// Horizontally compact: form and page sheets are phone cards.
    public var isCompact: Bool { self == .phone }

    // MARK: - The geometry constants (iOS 13–14 sheets; docs/SCENE.md)

    /// A phone card starts this far below the safe area's top.
    public static let sheetTopGap = 10.0
    public static let sheetCornerRadius = 10.0
    /// A pushed-back presenter is inset this much on each side (its scale is (W − 2·16) / W).
    public static let pushedBackInset = 16.0
    /// Tablet form sheet: `UIViewController.preferredContentSize`'s default for `.formSheet`.
    public static let formSheetSize = Size(width: 540, height: 620)
    /// Tablet page sheet width.
    public static let pageSheetWidth = 704.0
    /// The tablet's dimming view under a sheet.
    public static let dimmingOpacity = 0.4
    /// A phone sheet's dimming view above its largest undimmed detent: black at 0.2. Apple does
    /// not publish it; third-party: OpenUIKit measured 0.2 on a simulator and the Charon
    /// reimplementation reads `_alertControllerDimmingViewColor` (black, 0.2). SheetDetentTests.
    public static let sheetDimmingOpacity = 0.2
    /// A navigation bar's own height (the status-bar inset is added when it is at the screen's top).
    public static let navigationBarHeight = 44.0

    /// The scale of a presenter pushed back under a phone card.
    public var pushedBackScale: Double { (size.width - 2 * Self.pushedBackInset) / size.width }

    /// The frame a presentation of `style` gives the presented view, for the non-context styles
    /// (the context styles take the context's frame), in portrait (`frame(for:in:)` for the others).
    public func frame(for style: PresentationStyle) -> Rect { frame(for: style, in: .portrait) }
}
