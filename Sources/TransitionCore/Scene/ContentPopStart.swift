/// What iOS 26's content swipe (`interactiveContentPopGestureRecognizer`) does with a pointer
/// that comes down in a navigation controller's content, outside the edge swipe's band
/// (`Scene.contentPopStart(popping:at:)`).
public enum ContentPopStart: Equatable, Hashable, Sendable {
    /// No content swipe here: before iOS 26, turned off (`SceneOptions.contentPop`), no pop to
    /// make, or the pointer is not in the content of the stack that would pop.
    case unavailable
    /// The swipe may begin: `ContentSwipeHysteresis` decides from the movement (rightward and
    /// mostly horizontal pops; anything else fails it).
    case decides
    /// A horizontal scroll view away from its leading edge takes the pan: it scrolls, no pop.
    case scrolls(String)
    /// A view with the app's own pan gesture takes the pan: no pop.
    case appPan(String)
}
