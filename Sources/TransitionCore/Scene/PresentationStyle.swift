/// `UIModalPresentationStyle`, the six styles the sandbox models. Raw values are the wire names.
public enum PresentationStyle: String, Equatable, Hashable, Sendable, CaseIterable {
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
}
