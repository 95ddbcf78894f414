/// The appearance callbacks a controller receives, and the animator's `completeTransition`.
/// Raw values are the wire names.
public enum LifecycleCallback: String, Equatable, Hashable, Sendable, CaseIterable {
    case viewDidLoad
    case viewWillAppear
    case viewDidAppear
    case viewWillDisappear
    case viewDidDisappear
    /// `UIViewControllerContextTransitioning.completeTransition(_:)`, logged with `didComplete`
    /// for the controller that moves: the presented or pushed one (`to`), the dismissed or
    /// popped one (`from`).
    case completeTransition
}

/// One line of the lifecycle log.
public struct LifecycleEvent: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var controller: String
    public var callback: LifecycleCallback
    /// The `animated` argument (false for `viewDidLoad`).
    public var animated: Bool
    /// `completeTransition`'s argument; nil for the other callbacks.
    public var didComplete: Bool?

    public init(controller: String, callback: LifecycleCallback, animated: Bool, didComplete: Bool? = nil) {
        self.controller = controller
        self.callback = callback
        self.animated = animated
        self.didComplete = didComplete
    }

    public static func load(_ id: String) -> LifecycleEvent {
        LifecycleEvent(controller: id, callback: .viewDidLoad, animated: false)
    }

    public static func complete(_ id: String, _ didComplete: Bool, animated: Bool = true) -> LifecycleEvent {
        LifecycleEvent(controller: id, callback: .completeTransition, animated: animated, didComplete: didComplete)
    }

    public var description: String {
        if let didComplete { return "\(controller).\(callback.rawValue)(\(didComplete))" }
        return callback == .viewDidLoad ? "\(controller).viewDidLoad" : "\(controller).\(callback.rawValue)(\(animated))"
    }
}
