/// The summary sent as `scene-state`: the tree, who presents whom, the stacks, the top-most.
public struct SceneState: Equatable, Sendable {
    /// One presenting → presented pair.
    public struct Presentation: Equatable, Sendable {
        public var presenter: String
        public var presented: String
        /// The controller `present` was called on.
        public var source: String
        public var style: PresentationStyle
        public var transition: TransitionKind
        /// The view a zoom transition grew out of (and shrinks back into); nil for other kinds.
        public var sourceView: ZoomSource? = nil
    }

    /// One navigation controller's stack, bottom to top (the last is visible).
    public struct NavigationStack: Equatable, Sendable {
        public var navigation: String
        public var stack: [String]
    }

    public var device: SceneDevice
    /// The iOS release the scene behaves as.
    public var ios: IOSVersion = .newest
    /// iOS 26's content swipe is enabled (`SceneOptions.contentPop`).
    public var contentPop = true
    /// The window's root with its current stacks.
    public var root: SceneController
    /// In the order presented.
    public var presentations: [Presentation]
    /// Every navigation controller in the hierarchy, in tree order (root first, then presented).
    public var navigationStacks: [NavigationStack]
    /// The top-most controller: the default `from` of present and target of dismiss.
    public var topMost: String
    /// The controllers whose views are in the window and have appeared, in appearance order.
    public var appeared: [String]
    /// The operation in flight, if any.
    public var inFlight: SceneAction?
    /// Device and interface orientation, window bounds, the allowed mask and its sources.
    public var orientation: SceneOrientationState = .placeholder
}
