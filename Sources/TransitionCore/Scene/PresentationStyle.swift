/// `UIModalPresentationStyle`, the styles the sandbox models. Raw values are the wire names.
/// A presentation stores the style in force (`resolved(ios:device:)`), never `automatic`.
public enum PresentationStyle: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The system's choice (`UIModalPresentationStyle.automatic`, the wire's default): a page
    /// sheet from iOS 13, full screen before (ScenePresentationVersionTests).
    case automatic
    /// The presented view covers the screen; the presenter's views are removed when it finishes.
    case fullScreen
    /// iOS 13+: a card (phone: below the safe area, the presenter pushed back; tablet: 704 pt wide).
    case pageSheet
    /// iOS 13+: a centred 540 × 620 card on a tablet; on a phone (compact width) the same as `pageSheet`.
    case formSheet
    /// Covers the presentation context (`definesPresentationContext`); the context's view is removed.
    case currentContext
    /// Covers the screen; the views beneath stay (the presenter gets no disappear callbacks).
    case overFullScreen
    /// Covers the presentation context; the views beneath stay.
    case overCurrentContext

    /// The styles whose presenting controller is found by the context walk.
    public var isContextBased: Bool { self == .currentContext || self == .overCurrentContext }

    /// The cards.
    public var isSheet: Bool { self == .pageSheet || self == .formSheet }

    /// Whether the presenter's (or the context's) view leaves the window when the presentation
    /// finishes (`UIPresentationController.shouldRemovePresentersView`): only the opaque
    /// full-screen and current-context styles. Sheets and `over…` keep it, and so the presenter
    /// gets no disappear/appear callbacks.
    public var removesPresenterView: Bool { self == .fullScreen || self == .currentContext }

    /// The style a presentation uses on `ios` and `device`:
    /// - `automatic` is `pageSheet` from iOS 13 and `fullScreen` before (Apple's
    ///   `UIModalPresentationStyle.automatic`: "For most view controllers, UIKit maps this style
    ///   to the UIModalPresentationStyle.pageSheet style"; iOS 13 made it the default).
    /// - On a phone a sheet is full screen before iOS 13 (compact width adapts page and form
    ///   sheets to full screen). From 13 it stays a sheet in landscape too: Apple,
    ///   `prefersEdgeAttachedInCompactHeight`, the sheet "defaults to a full screen appearance at
    ///   compact height" — an appearance (`SceneDevice.sheetFillsWindow`), not the style.
    /// ScenePresentationVersionTests holds each rule.
    public func resolved(ios: IOSVersion, device: SceneDevice) -> PresentationStyle {
        var style = self
        if style == .automatic { style = ios.atLeast(13) ? .pageSheet : .fullScreen }
        if style.isSheet, device.isCompact, !ios.atLeast(13) { style = .fullScreen }
        return style
    }
}
