/// A page or form sheet's `sheetPresentationController` settings (iOS 15+): where it may rest
/// and how it looks and behaves there. The wire's controller field `sheet` (SceneSheet+Wire).
///
/// Sources: Apple, `UISheetPresentationController`
/// (https://developer.apple.com/documentation/uikit/uisheetpresentationcontroller); WWDC 2021
/// session 10063 "Customize and resize sheets in UIKit"; WWDC 2022 session 10068 "What's new in
/// UIKit" (custom detents). SheetDetentTests.
public struct SheetDetentConfiguration: Equatable, Hashable, Sendable {
    /// At most this many detents (UIKit sets no limit; each is drawn as a line: chosen).
    public static let maximumDetents = 8

    /// Smallest first is not required: the order is the app's (UIKit sorts by height).
    public var detents: [SheetDetent]
    /// `selectedDetentIdentifier`: nil is UIKit's "the smallest detent" (Apple: "If the value is
    /// nil, the sheet uses the smallest detent").
    public var selectedDetent: String?
    /// `largestUndimmedDetentIdentifier`: nil dims at every detent (Apple: "the default value
    /// is nil, which means the system dims all detents").
    public var largestUndimmedDetent: String?
    public var prefersGrabberVisible: Bool
    /// Apple: "The default value is true".
    public var prefersScrollingExpandsWhenScrolledToEdge: Bool
    public var prefersEdgeAttachedInCompactHeight: Bool
    public var widthFollowsPreferredContentSizeWhenEdgeAttached: Bool
    /// `preferredCornerRadius`; nil: the system's (10 in this model's card).
    public var preferredCornerRadius: Double?

    public init(
        detents: [SheetDetent] = [.large], selectedDetent: String? = nil, largestUndimmedDetent: String? = nil,
        prefersGrabberVisible: Bool = false, prefersScrollingExpandsWhenScrolledToEdge: Bool = true,
        prefersEdgeAttachedInCompactHeight: Bool = false,
        widthFollowsPreferredContentSizeWhenEdgeAttached: Bool = false, preferredCornerRadius: Double? = nil
    ) {
        self.detents = detents
        self.selectedDetent = selectedDetent
        self.largestUndimmedDetent = largestUndimmedDetent
        self.prefersGrabberVisible = prefersGrabberVisible
        self.prefersScrollingExpandsWhenScrolledToEdge = prefersScrollingExpandsWhenScrolledToEdge
        self.prefersEdgeAttachedInCompactHeight = prefersEdgeAttachedInCompactHeight
        self.widthFollowsPreferredContentSizeWhenEdgeAttached = widthFollowsPreferredContentSizeWhenEdgeAttached
        self.preferredCornerRadius = preferredCornerRadius
    }

    /// The detent with `identifier`, if the sheet has one.
    public func detent(_ identifier: String) -> SheetDetent? { detents.first { $0.identifier == identifier } }

    /// The detents with their card heights, smallest first (equal heights keep the app's order).
    public func resolved(large: Double, container: Double, bottomInset inset: Double)
        -> [(detent: SheetDetent, height: Double)]
    {
        detents.enumerated()
            .map { ($0.offset, $0.element, $0.element.height(large: large, container: container, bottomInset: inset)) }
            .sorted { ($0.2, $0.0) < ($1.2, $1.0) }
            .map { ($0.1, $0.2) }
    }

    /// The detent the sheet rests at: the selected one, else the smallest.
    public func current(large: Double, container: Double, bottomInset: Double)
        -> (detent: SheetDetent, height: Double)
    {
        let all = resolved(large: large, container: container, bottomInset: bottomInset)
        return all.first { $0.detent.identifier == selectedDetent } ?? all[0]
    }

    /// Whether the card at `height` is dimmed beneath: above the largest undimmed detent's
    /// height (Apple, `largestUndimmedDetentIdentifier`: "The largest detent that doesn't dim
    /// the view underneath the sheet"; nil dims all).
    public func dims(atHeight height: Double, large: Double, container: Double, bottomInset: Double) -> Bool {
        guard let undimmed = largestUndimmedDetent, let detent = detent(undimmed) else { return true }
        return height > detent.height(large: large, container: container, bottomInset: bottomInset) + 0.5
    }

    /// Checks the settings against the iOS release: detents exist from 15, custom ones from 16
    /// (Apple: `UISheetPresentationController` iOS 15.0+, `.custom(identifier:resolver:)` 16.0+),
    /// and every identifier named refers to a detent of the sheet.
    public func validate(ios: IOSVersion, controller: String) throws(SceneError) {
        guard ios.atLeast(15) else {
            throw .unavailableInIOS(api: "UISheetPresentationController (sheet detents)", since: 15, ios: ios)
        }
        if detents.contains(where: { if case .custom = $0 { true } else { false } }), !ios.atLeast(16) {
            throw .unavailableInIOS(api: "UISheetPresentationController.Detent.custom", since: 16, ios: ios)
        }
        for (name, value) in [("selectedDetent", selectedDetent), ("largestUndimmedDetent", largestUndimmedDetent)] {
            if let value, detent(value) == nil {
                throw .invalidScene("the sheet of \"\(controller)\" has no detent \"\(value)\" (its \(name))")
            }
        }
    }
}

extension SceneController {
    /// A controller presented with `style` may carry `sheet` only as a page or form sheet
    /// (UIKit's `sheetPresentationController` is nil for the other styles), on a release that
    /// has it; the settings belong to the presented controller, not to a child of its stack.
    /// Errors: `invalid-scene`, `unavailable-in-ios`. SheetDetentTests.
    func checkSheet(style: PresentationStyle, ios: IOSVersion) throws(SceneError) {
        if let child = (stack ?? []).first(where: { $0.sheet != nil }) {
            throw .invalidScene(
                "\"\(child.id)\" is in a navigation stack: 'sheet' belongs to the presented controller \"\(id)\"")
        }
        guard let sheet else { return }
        guard style.isSheet else {
            throw .invalidScene("'sheet' is for page and form sheets; \"\(id)\" is presented \(style.rawValue)")
        }
        try sheet.validate(ios: ios, controller: id)
    }
}
