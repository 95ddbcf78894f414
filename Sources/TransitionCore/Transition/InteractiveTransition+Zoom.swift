/// The zoom's two-dimensional dismissal on top of the one-dimensional engine: progress still
/// comes from the pan along its axis (and decides the release), and the zoom animator also
/// takes the pan's translation, so the card follows the finger in x and y
/// (`ZoomAnimator+Drag.swift`). Every other kind's layers are the timeline's, unchanged.
/// Tested in ZoomDismissReleaseTests.
extension InteractiveTransition {
    /// The zoom dismissal's card while a pan drags it or it settles; nil otherwise (the timeline
    /// then draws it).
    func zoomCard() -> Rect? {
        guard case .zoom(let zoom) = animator, let zoomDrag else { return nil }
        switch (phase, zoomDrag) {
        case let (.tracking, .tracking(anchor, anchorProgress)):
            return zoom.tracking(
                anchor: anchor, anchorProgress: anchorProgress, progress: progress, translation: recognizer.translation)
        case let (.finishing, .settling(from, releaseProgress, toSource)),
            let (.cancelling, .settling(from, releaseProgress, toSource)):
            return zoom.settling(from: from, releaseProgress: releaseProgress, progress: progress, toSource: toSource)
        default:
            return nil
        }
    }

    /// Appends the layers the zoom dismissal shows now; false (nothing appended) to use the timeline's.
    func zoomLayers(into layers: inout [LayerState]) -> Bool {
        guard case .zoom(let zoom) = animator, let card = zoomCard() else { return false }
        zoom.layers(card: card, into: &layers)
        return true
    }

    /// After a pointer event: a pan that began on a zoom dismissal anchors the card where it
    /// was shown (`shown`: the card before the event, the timeline's if no drag held it), and a
    /// release hands the card over to its settle.
    mutating func followZoom(_ update: PanRecognizer.State?, shown: Rect?) {
        guard case .zoom(let zoom) = animator, configuration.operation == .dismiss else { return }
        if update == .began, phase == .tracking {
            if let grabbed = grabbedAt {
                let anchor = shown ?? zoom.card(at: grabbed * configuration.duration)
                zoomDrag = .tracking(anchor: anchor, anchorProgress: grabbed)
            } else {
                zoomDrag = .tracking(anchor: zoom.home, anchorProgress: 0)
            }
        } else if update == .ended || update == .cancelled,
            case .tracking(let anchor, let anchorProgress)? = zoomDrag, let release = lastRelease
        {
            let released = zoom.tracking(
                anchor: anchor, anchorProgress: anchorProgress, progress: release.progress,
                translation: recognizer.translation)
            zoomDrag = .settling(
                from: released, releaseProgress: release.progress, toSource: release.outcome == .finish)
        }
    }
}
