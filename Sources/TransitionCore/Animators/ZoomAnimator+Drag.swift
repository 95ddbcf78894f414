/// The zoom's interactive dismissal, in two dimensions: the card follows the finger (its centre
/// moves by the pan's translation, x and y) and shrinks as the pan's progress grows (the
/// downward distance over the container's height, or the edge swipe's over its width); on
/// release it settles from where it was let go — into the source's rect (finish) or back to the
/// full frame (cancel). A touch during the settle catches the card where it is and drags on
/// from there. Apple: "People can then grab, drag, and control the transitions when they begin
/// and anytime during their animation" ("Enhancing your app with fluid transitions").
/// Inferred: the scale falls linearly with progress to `minimumScale` at progress 1.
/// Tested in ZoomAnimatorTests.
extension ZoomAnimator {
    /// The card's scale at pan progress 1 (a drag down the whole container). Inferred.
    public static let minimumScale = 0.4

    /// The card's scale at pan `progress` (clamped to 0…1): 1 at rest, `minimumScale` at 1.
    public static func trackingScale(_ progress: Double) -> Double {
        let p = progress.isFinite ? min(max(progress, 0), 1) : 0
        return 1 - (1 - minimumScale) * p
    }

    /// The card under the finger: `anchor` (the card where the pan began, at `anchorProgress`)
    /// scaled about its centre to the scale of `progress`, its centre moved by `translation`.
    public func tracking(anchor: Rect, anchorProgress: Double, progress: Double, translation: Point) -> Rect {
        let k = Self.trackingScale(progress) / Self.trackingScale(anchorProgress)
        let size = Size(width: anchor.width * k, height: anchor.height * k)
        let center = anchor.center + translation
        return Rect(origin: Point(x: center.x - size.width / 2, y: center.y - size.height / 2), size: size)
    }

    /// The card settling after a release at `released` (progress `releaseProgress`): the share
    /// of the way the completion has run (progress toward 1 finishing, toward 0 cancelling)
    /// is the share of the way from `released` to the source (finish) or the full frame (cancel).
    public func settling(from released: Rect, releaseProgress: Double, progress: Double, toSource: Bool) -> Rect {
        let f: Double
        if toSource {
            f = releaseProgress < 1 ? (progress - releaseProgress) / (1 - releaseProgress) : 1
        } else {
            f = releaseProgress > 0 ? (releaseProgress - progress) / releaseProgress : 1
        }
        return released.interpolated(to: toSource ? source : home, fraction: f.isFinite ? f : 1)
    }
}

/// Where the zoom's interactive dismissal is: a finger drags the card, or the card settles
/// from where it was let go. Held by the engine (`InteractiveTransition.zoomDrag`).
public enum ZoomDrag: Equatable, Hashable, Sendable {
    /// The pan began with the card at `anchor`, at progress `anchorProgress`.
    case tracking(anchor: Rect, anchorProgress: Double)
    /// Released with the card at `from`, at progress `releaseProgress`, settling into the
    /// source (`toSource`) or back home.
    case settling(from: Rect, releaseProgress: Double, toSource: Bool)
}
