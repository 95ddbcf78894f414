import TransitionCore

/// iOS 26's content swipe (`interactiveContentPopGestureRecognizer`) in a session: which downs
/// it may take, and the down it holds while it decides (SessionContentPopTests).
extension SceneSession {
    /// A pointer down the content swipe holds while it decides: the engine is handed this down,
    /// then the move that decided, once the swipe (or, when it fails, a sheet's dismissal)
    /// takes the pan.
    struct ContentSwipeDown: Equatable {
        var message: PointerMessage
        /// The server's clock when it was received, and when it reached the socket if a
        /// simulated link held it (as `SessionCore.pointer` takes them), in seconds.
        var received: Double
        var arrived: Double?

        /// How far the pointer has moved since it came down (pt).
        func translation(to message: PointerMessage) -> Point {
            Point(x: message.x - self.message.x, y: message.y - self.message.y)
        }
    }

    /// What the content swipe does with a down the engine would otherwise hold or hand to a
    /// sheet's dismissal: the default pop armed (nothing in flight, nothing turning) and the
    /// down outside the edge swipe's band, which has priority (`Scene.contentPopStart`).
    func contentPopStart(_ message: PointerMessage) -> ContentPopStart {
        guard let armed, armed.isDefault, flight == nil, rotation == nil, contentSwipe == nil,
            outsideEdgeBand(message)
        else { return .unavailable }
        return scene.contentPopStart(popping: armed.plan, at: Point(x: message.x, y: message.y))
    }
}
