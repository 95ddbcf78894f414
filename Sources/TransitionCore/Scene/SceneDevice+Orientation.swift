/// The device's geometry per interface orientation (docs/SCENE.md, "Orientation and rotation").
extension SceneDevice {
    /// The system rotation's duration per quarter turn: 0.3 s on a phone, 0.4 s on a tablet.
    /// Apple documents the quantity, not its value: `UIApplication.statusBarOrientationAnimationDuration`
    /// is "the animation duration in seconds for the status bar during a 90 degree orientation
    /// change … twice this value for a 180 degree orientation change"; 0.3 (iPhone) and 0.4
    /// (iPad) are what it, and the coordinator's `transitionDuration` in
    /// `viewWillTransition(to:with:)`, report on devices — observed, not documented, and not
    /// checked for every release (`SceneOrientationVersionTests.rotationDurationByIdiom`).
    public var rotationDuration: Double {
        switch self {
        case .phone: 0.3
        case .tablet: 0.4
        }
    }

    /// The window's size: the portrait size, width and height swapped in landscape.
    public func size(in orientation: InterfaceOrientation) -> Size {
        orientation.isLandscape ? Size(width: size.height, height: size.width) : size
    }

    public func bounds(in orientation: InterfaceOrientation) -> Rect {
        Rect(origin: .zero, size: size(in: orientation))
    }

    /// The top safe-area inset: a phone in landscape hides its status bar and its notch moves
    /// to a side (0); a tablet keeps its status bar (24); upside down is laid out as portrait.
    public func safeAreaTop(in orientation: InterfaceOrientation) -> Double {
        self == .phone && orientation.isLandscape ? 0 : safeAreaTop
    }

    /// A navigation bar's own height: 32 pt on a phone in landscape (compact height), else 44.
    public func navigationBarHeight(in orientation: InterfaceOrientation) -> Double {
        self == .phone && orientation.isLandscape ? 32 : Self.navigationBarHeight
    }

    /// The scale of a presenter pushed back under a phone card: (W − 2·16) / W of the window's width.
    public func pushedBackScale(in orientation: InterfaceOrientation) -> Double {
        let width = size(in: orientation).width
        return (width - 2 * Self.pushedBackInset) / width
    }

    /// `frame(for:)` in `orientation`'s window (interface coordinates): the same rules on the
    /// rotated bounds and that orientation's safe area.
    public func frame(for style: PresentationStyle, in orientation: InterfaceOrientation) -> Rect {
        if style.isSheet, sheetFillsWindow(in: orientation) { return bounds(in: orientation) }
        let size = size(in: orientation)
        let bounds = bounds(in: orientation)
        let top = safeAreaTop(in: orientation) + Self.sheetTopGap
        switch (style, isCompact) {
        case (.fullScreen, _), (.overFullScreen, _), (.currentContext, _), (.overCurrentContext, _):
            return bounds
        case (.automatic, _):  // never stored: resolved first (PresentationStyle.resolved)
            return frame(for: .pageSheet, in: orientation)
        case (.pageSheet, true), (.formSheet, true):
            return Rect(x: 0, y: top, width: size.width, height: size.height - top)
        case (.pageSheet, false):
            let width = Self.pageSheetWidth
            return Rect(x: (size.width - width) / 2, y: top, width: width, height: size.height - 2 * top)
        case (.formSheet, false):
            let sheet = Self.formSheetSize
            return Rect(
                x: (size.width - sheet.width) / 2, y: (size.height - sheet.height) / 2,
                width: sheet.width, height: sheet.height)
        }
    }

    /// Whether a sheet takes the whole window in `orientation`: a phone's sheet at compact
    /// height (landscape). Apple, `UISheetPresentationController.prefersEdgeAttachedInCompactHeight`:
    /// the sheet "defaults to a full screen appearance at compact height". It stays a sheet (its
    /// swipe-down, the presenter kept and not pushed back, no decision over the orientation);
    /// drawn without rounded corners (inferred from "full screen appearance"). SceneLandscapeSheetTests.
    public func sheetFillsWindow(in orientation: InterfaceOrientation) -> Bool {
        isCompact && orientation.isLandscape
    }
}
