/// Stable layer identifiers; raw values are the wire names (docs/PROTOCOL.md lists them).
public enum LayerID: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The source screen (removed when the transition completes, except for the partial curl).
    case from
    /// The destination screen.
    case to
    /// Pop: the tapped thumbnail on the list screen.
    case thumbnail
    /// Reveal: the logo drawn on the source screen.
    case logo
    /// Reveal: the logo-shaped mask of the destination screen.
    case mask
    /// Partial curl: the back of the folded-over page.
    case curl
    /// Partial curl: the mask that cuts the page along the fold line.
    case fold
    /// A scene's covered view's shade (the navigation push dims the view it covers: `CoveredSide`).
    case shade
}

/// What a layer shows, so the page can draw the right picture whichever role it plays.
public enum LayerContent: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The presenting (or pushing) screen: the list in pop, the logo screen in reveal.
    case presenter
    /// The presented (or pushed) screen: the detail.
    case presented
    case thumbnail
    case logo
    /// The back of a page (partial curl).
    case pageBack
    /// A mask: only its shape counts.
    case mask
    /// Black at the layer's opacity: a shade over a covered view.
    case shade
}

/// The outline a layer is drawn or masks with.
public enum LayerShape: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The layer's bounds, with its corner radius.
    case rect
    /// `LogoPath` scaled to the layer's bounds.
    case logo
}
