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
    /// `viewWillTransition(to:with:)` (iOS 8+), `size` = the controller's new view size.
    case viewWillTransition
    /// `viewWillLayoutSubviews`, sent in a rotation as the bounds change.
    case viewWillLayoutSubviews
    /// iOS ≤ 7: `willRotate(to:duration:)`, `orientation` = the new one.
    case willRotate
    /// iOS ≤ 7: `willAnimateRotation(to:duration:)` (inside the animation block).
    case willAnimateRotation
    /// iOS ≤ 7: `didRotate(from:)`, `orientation` = the old one.
    case didRotate
    /// iOS 13+: `UIAdaptivePresentationControllerDelegate.presentationControllerDidAttemptToDismiss(_:)`,
    /// logged under the sheet when its swipe-down is blocked by `isModalInPresentation`.
    case presentationControllerDidAttemptToDismiss
    /// iOS 13+: `presentationControllerShouldDismiss(_:)`, logged under the sheet when its
    /// swipe-down begins (the sandbox's delegate answers true).
    case presentationControllerShouldDismiss
    /// iOS 13+: `presentationControllerWillDismiss(_:)`, logged under the sheet when its
    /// swipe-down starts the dismissal (before the appearance callbacks; a cancel may follow).
    case presentationControllerWillDismiss
    /// iOS 13+: `presentationControllerDidDismiss(_:)`, logged under the sheet once its
    /// swipe-down's dismissal finished (after the appearance callbacks).
    case presentationControllerDidDismiss
    /// iOS 15+: `UISheetPresentationControllerDelegate`'s
    /// `sheetPresentationControllerDidChangeSelectedDetentIdentifier(_:)`, logged under the sheet
    /// when the user's drag settles it in another detent (not for programmatic changes: Apple's
    /// documentation of the method).
    case sheetPresentationControllerDidChangeSelectedDetentIdentifier

    /// The sheet's delegate calls (`UIAdaptivePresentationControllerDelegate`): they take no
    /// `animated` argument, so their lines show none.
    public var isDelegateCall: Bool {
        switch self {
        case .presentationControllerDidAttemptToDismiss, .presentationControllerShouldDismiss,
            .presentationControllerWillDismiss, .presentationControllerDidDismiss,
            .sheetPresentationControllerDidChangeSelectedDetentIdentifier:
            return true
        default:
            return false
        }
    }
}

/// One line of the lifecycle log.
public struct LifecycleEvent: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var controller: String
    public var callback: LifecycleCallback
    /// The `animated` argument (false for `viewDidLoad`; true, and meaningless, for delegate calls).
    public var animated: Bool
    /// `completeTransition`'s argument; nil for the other callbacks.
    public var didComplete: Bool?
    /// `viewWillTransition`'s size; nil for the other callbacks.
    public var size: Size?
    /// The rotation callbacks' orientation (`to` for willRotate/willAnimateRotation, `from`
    /// for didRotate); nil for the other callbacks.
    public var orientation: InterfaceOrientation?

    public init(
        controller: String, callback: LifecycleCallback, animated: Bool, didComplete: Bool? = nil, size: Size? = nil,
        orientation: InterfaceOrientation? = nil
    ) {
        self.controller = controller
        self.callback = callback
        self.animated = animated
        self.didComplete = didComplete
        self.size = size
        self.orientation = orientation
    }

    public static func load(_ id: String) -> LifecycleEvent {
        LifecycleEvent(controller: id, callback: .viewDidLoad, animated: false)
    }

    /// A sheet delegate's call (`LifecycleCallback.isDelegateCall`) about the sheet `id`.
    public static func delegate(_ id: String, _ callback: LifecycleCallback) -> LifecycleEvent {
        LifecycleEvent(controller: id, callback: callback, animated: true)
    }

    public static func complete(_ id: String, _ didComplete: Bool, animated: Bool = true) -> LifecycleEvent {
        LifecycleEvent(controller: id, callback: .completeTransition, animated: animated, didComplete: didComplete)
    }

    public var description: String {
        if let didComplete { return "\(controller).\(callback.rawValue)(\(didComplete))" }
        if let size { return "\(controller).\(callback.rawValue)(\(size.width)×\(size.height))" }
        if let orientation { return "\(controller).\(callback.rawValue)(\(orientation.rawValue))" }
        if callback == .viewWillLayoutSubviews || callback.isDelegateCall {
            return "\(controller).\(callback.rawValue)"
        }
        return callback == .viewDidLoad
            ? "\(controller).viewDidLoad" : "\(controller).\(callback.rawValue)(\(animated))"
    }
}
