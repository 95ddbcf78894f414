/// A phone sheet's detents in the scene: the card's frame at its selected detent, what lies
/// beneath it there (push-back, dimming), its grabber, and changing the selected detent.
/// The rules and their sources: docs/SCENE.md "Sheet detents"; SheetDetentSceneTests.
extension SceneHierarchy {
    /// What a detent changes in a phone card's picture.
    struct SheetLook: Equatable {
        /// The presenter is pushed back only at the large detent (WWDC 2021 session 10063: at
        /// the medium detent "the presenting view stays" where it is — inferred from the video,
        /// the card at medium does not scale what lies beneath).
        var pushesBack: Bool
        /// A dimming view beneath the card (`largestUndimmedDetentIdentifier`).
        var dims: Bool
        var grabber: Rect?
        var cornerRadius: Double
    }

    /// The grabber's size and its gap below the card's top edge (pt). UIKit does not publish
    /// them; 36 × 5 pt, 5 pt down, is what a screenshot of iOS 15–17 measures (inferred).
    static let grabberSize = Size(width: 36, height: 5)
    static let grabberInset = 5.0

    /// Whether a sheet's detents shape its card: a phone's card (compact width, not filling the
    /// window in landscape — Apple: medium "is inactive in compact height") with `sheet` set.
    func detentsApply(to presented: SceneController, style: PresentationStyle) -> Bool {
        presented.sheet != nil && style.isSheet && device.isCompact
            && !device.sheetFillsWindow(in: interfaceOrientation)
    }

    /// The card's frame at its selected detent: the large card (`base`, the iOS 13 card) cut to
    /// the detent's height within the bottom safe area (`SheetDetent.height`).
    func detentFrame(_ base: Rect, presented: SceneController, style: PresentationStyle) -> Rect {
        guard detentsApply(to: presented, style: style), let sheet = presented.sheet else { return base }
        let height = sheet.current(
            large: base.height, container: bounds.height, bottomInset: device.safeAreaBottom
        ).height
        return Rect(x: base.minX, y: base.maxY - height, width: base.width, height: height)
    }

    /// The large card's frame for a sheet presentation (its detents' reference).
    func largeCardFrame(for style: PresentationStyle) -> Rect { frame(for: style) }

    /// The look of a phone card at its current frame; nil when detents do not apply.
    func sheetLook(_ presentation: ScenePresentation) -> SheetLook? {
        let presented = presentation.presented
        guard detentsApply(to: presented, style: presentation.style), let sheet = presented.sheet else { return nil }
        let large = largeCardFrame(for: presentation.style)
        let height = presentation.frame.height
        let card = presentation.frame
        let grabber = Rect(
            x: card.midX - Self.grabberSize.width / 2, y: card.minY + Self.grabberInset,
            width: Self.grabberSize.width, height: Self.grabberSize.height)
        return SheetLook(
            pushesBack: height >= large.height - 0.5,
            dims: sheet.dims(
                atHeight: height, large: large.height, container: bounds.height, bottomInset: device.safeAreaBottom),
            grabber: sheet.prefersGrabberVisible ? grabber : nil,
            cornerRadius: sheet.preferredCornerRadius ?? SceneDevice.sheetCornerRadius)
    }

    /// The phone card's layers with its look: the dimming view beneath (opacity
    /// `SceneDevice.sheetDimmingOpacity`), the card's corners, the grabber on top.
    func lookedLayers(_ layers: [SceneLayer], of presentation: ScenePresentation, look: SheetLook) -> [SceneLayer] {
        let id = presentation.presented.id
        var result: [SceneLayer] = []
        if look.dims {
            result.append(
                SceneLayer(
                    controller: id, role: .dimming, frame: bounds, opacity: SceneDevice.sheetDimmingOpacity, group: id))
        }
        result += layers.map { layer in
            var layer = layer
            layer.cornerRadius = look.cornerRadius
            return layer
        }
        if let grabber = look.grabber {
            result.append(
                SceneLayer(
                    controller: id, role: .grabber, frame: grabber, cornerRadius: grabber.height / 2, group: id))
        }
        return result
    }
}

/// The top-most sheet's detents, as the session's drag and `scene-state` read them.
public struct SheetDetentState: Equatable, Sendable {
    public var controller: String
    public var configuration: SheetDetentConfiguration
    /// Each detent's identifier and card top (device y), smallest card (largest y) first.
    public var detents: [(id: String, top: Double)]
    public var selected: String
    /// The card's top at the selected detent.
    public var top: Double
    /// The card's bottom (the container's bottom edge).
    public var bottom: Double
    /// Whether a drag or its settle moves the card (the session's, not the scene's: set there).
    public var moving = false

    public static func == (lhs: SheetDetentState, rhs: SheetDetentState) -> Bool {
        lhs.controller == rhs.controller && lhs.configuration == rhs.configuration && lhs.selected == rhs.selected
            && lhs.top == rhs.top && lhs.bottom == rhs.bottom && lhs.moving == rhs.moving
            && lhs.detents.map(\.id) == rhs.detents.map(\.id) && lhs.detents.map(\.top) == rhs.detents.map(\.top)
    }

    /// The largest detent's top (smallest y).
    public var largestTop: Double { detents.last!.top }
    /// The smallest detent's top.
    public var smallestTop: Double { detents[0].top }
    public var isAtSmallest: Bool { abs(top - smallestTop) < 0.5 }
    public var isAtLargest: Bool { abs(top - largestTop) < 0.5 }
}

extension Scene {
    /// The detents of the top-most presentation when it is a phone card with `sheet`, at rest.
    public var sheetDetents: SheetDetentState? {
        guard pending == nil, let last = hierarchy.composition().zOrder.last else { return nil }
        let presentation = hierarchy.presentations[last]
        return Self.detentState(presentation, in: hierarchy)
    }

    /// Every sheet's detent state in the committed hierarchy (for `scene-state`), by controller id.
    public var sheetDetentStates: [SheetDetentState] {
        hierarchy.presentations.compactMap { Self.detentState($0, in: hierarchy) }
    }

    private static func detentState(_ presentation: ScenePresentation, in hierarchy: SceneHierarchy)
        -> SheetDetentState?
    {
        let presented = presentation.presented
        guard hierarchy.detentsApply(to: presented, style: presentation.style), let sheet = presented.sheet else {
            return nil
        }
        let large = hierarchy.largeCardFrame(for: presentation.style)
        let (container, inset) = (hierarchy.bounds.height, hierarchy.device.safeAreaBottom)
        let resolved = sheet.resolved(large: large.height, container: container, bottomInset: inset)
        let current = sheet.current(large: large.height, container: container, bottomInset: inset)
        return SheetDetentState(
            controller: presented.id, configuration: sheet,
            detents: resolved.map { ($0.detent.identifier, large.maxY - $0.height) },
            selected: current.detent.identifier, top: large.maxY - current.height, bottom: large.maxY)
    }

    /// The top-most sheet rests at detent `identifier` (its card's frame follows). Errors:
    /// `busy`, `nothing-presented` (no phone sheet with detents on top), `invalid-scene` (no
    /// such detent). Changes nothing on error.
    public mutating func selectDetent(_ identifier: String) throws(SceneError) {
        if let pending { throw .busy(pending.plan.action) }
        guard let last = hierarchy.composition().zOrder.last, sheetDetents != nil else {
            throw .nothingPresented(topMost)
        }
        let presentation = hierarchy.presentations[last]
        guard presentation.presented.sheet?.detent(identifier) != nil else {
            throw .invalidScene("the sheet \"\(presentation.presented.id)\" has no detent \"\(identifier)\"")
        }
        var next = hierarchy
        next.presentations[last].presented.sheet?.selectedDetent = identifier
        next.presentations[last].frame = next.detentFrame(
            next.largeCardFrame(for: presentation.style), presented: next.presentations[last].presented,
            style: presentation.style)
        hierarchy = next
    }

    /// The picture at rest with the top-most sheet at each of its detents, smallest first
    /// (the session's drag blends between two of them).
    public func detentPictures() -> [(top: Double, layers: [SceneLayer])] {
        guard let state = sheetDetents else { return [] }
        return state.detents.map { detent in
            var copy = self
            try? copy.selectDetent(detent.id)
            return (detent.top, copy.hierarchy.composition().layers)
        }
    }
}
