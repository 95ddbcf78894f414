/// How iOS 26's content swipe (`UINavigationController.interactiveContentPopGestureRecognizer`)
/// decides, while it is possible, whether a pan that began anywhere in the content pops: it
/// waits for a mostly horizontal, leading-to-trailing (rightward, left to right) movement.
///
/// Source: the decompile of iOS 26.1's UIKitCore (github.com/EthanArbuckle/
/// iPhone18-3_26.1_23B85_Restore), `_UIParallaxTransitionPanGestureRecognizer
/// _shouldTryToBeginWithEvent:` — the recognizer `_createContentSwipeGestureRecognizer` makes
/// (with `_setRecognizesWithoutEdge:1`) — on its complex-hysteresis path: the hysteresis h is
/// 30 pt for touches (50 for a trackpad's scroll events); with t the translation, it fails
/// ("exceededYTranslation") once |t.y| ≥ min((h − 10)/25·|t.x| + 10, 25), begins once
/// t.x ≥ h with the left edge as its edge (a left-to-right layout), fails ("unsupportedEdge")
/// once t.x ≤ −h, and waits otherwise. Not shown: `_usesComplexHysteresisCalculationForEvent:`
/// (the simple path is a hysteresis of 15 pt with the edge recognizer's rule); chosen: the
/// complex path for touches, the one that makes the swipe "initially horizontal" as Apple's
/// documentation describes it. Right-to-left layouts are not modelled.
/// Tested in `ContentSwipeHysteresisTests`.
public enum ContentSwipeHysteresis {
    /// The travel to the right that begins the swipe, for touches (pt).
    public static let hysteresis = 30.0
    /// The vertical travel that fails it at once (pt), and the most it may ever reach.
    public static let baseYLimit = 10.0
    public static let maximumYLimit = 25.0

    public enum Verdict: String, Equatable, Hashable, Sendable {
        case possible, began, failed
    }

    /// The vertical travel that fails the swipe after `dx` points sideways:
    /// min((h − 10)/25·|dx| + 10, 25).
    public static func yLimit(dx: Double) -> Double {
        min((hysteresis - baseYLimit) / 25 * abs(dx) + baseYLimit, maximumYLimit)
    }

    /// The verdict for the translation from the pointer-down point. A translation that is not
    /// finite fails (the session's coordinates are finite; this holds the rule total).
    public static func verdict(translation t: Point) -> Verdict {
        guard t.isFinite else { return .failed }
        if abs(t.y) >= yLimit(dx: t.x) { return .failed }
        if t.x >= hysteresis { return .began }
        if t.x <= -hysteresis { return .failed }
        return .possible
    }
}
