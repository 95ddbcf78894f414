/// Why a scene operation was refused. A refused operation changes nothing (the scene is `==` to
/// its value before). `code` is the wire's error code, `description` the message.
public enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `on` (the presenter UIKit settles on: the context, or the root of the layer of `source`,
    /// the controller `present` was called on) already presents `presented`. UIKit warns and
    /// does nothing; the text is `ios`'s (SceneErrorTextTests).
    case alreadyPresenting(attempted: String, on: String, source: String, presented: String, ios: IOSVersion)
    /// The controller is already in the hierarchy (presented twice, pushed twice, the root):
    /// UIKit raises NSInvalidArgumentException, with a text per case (`InHierarchy`).
    case alreadyPresented(String, InHierarchy, ios: IOSVersion)
    /// `dismiss` on a controller that neither presents nor is presented.
    case nothingPresented(String)
    /// `push`/`pop` where the controller is no navigation controller nor inside one.
    case notInNavigation(String)
    /// `pop` of a navigation controller with one controller left.
    case cannotPopRoot(String)
    case unknownController(String)
    /// An operation while a transition is in flight (the `SceneAction` running).
    case busy(SceneAction)
    /// A `present` while a present or dismiss is in flight (`busy`'s code): UIKit warns and does
    /// nothing, with `ios`'s text (SceneErrorTextTests), then the sandbox's explanation.
    case presentingWhileBusy(attempted: String, on: String, source: String, inFlight: SceneAction, ios: IOSVersion)
    /// A `present` from inside a controller presented with a partial curl (`presenter`): Apple,
    /// `UIModalTransitionStyle.partialCurl`, it "is itself prevented from presenting any
    /// additional view controllers". The text is the sandbox's (UIKit's is not known).
    case curledPresenter(attempted: String, presenter: String)
    /// Duplicate or empty ids, an empty navigation stack, a navigation controller pushed.
    case invalidScene(String)
    /// `present` from a controller whose view is not in the window (a controller under the top
    /// of its navigation stack, or under a full-screen presentation). UIKit warns and does nothing.
    case notInWindow(attempted: String, on: String, source: String, ios: IOSVersion)
    /// `push`/`pop` on a navigation controller whose visible child is covered by a presentation
    /// (a sandbox decision: UIKit would change the hidden stack without callbacks).
    case covered(navigation: String, by: String)
    /// An exception UIKit raises that ends the app: seed 000's iOS 8 crash
    /// (`SceneOptions.doublePresentation`), a partial curl to or from a controller that is not
    /// full screen. The scene is unchanged (the sandbox survives what the app would not).
    case uncaughtException(name: String, reason: String)
    /// app ∩ window ∩ the deciding controller's mask is empty: UIKit's uncaught
    /// UIApplicationInvalidInterfaceOrientation exception, never a silent choice.
    case noCommonOrientation(
        controller: String, supported: OrientationMask, app: OrientationMask, window: OrientationMask)
    /// A full-screen presented controller's preferred orientation is not among its allowed ones.
    case unsupportedPreferredOrientation(controller: String, preferred: InterfaceOrientation, allowed: OrientationMask)
    /// An API the scene's iOS release does not have (`SceneOptions.ios`).
    case unavailableInIOS(api: String, since: Int, ios: IOSVersion)
    /// `requestGeometryUpdate` asked only for orientations the decider does not allow
    /// (UIKit's error handler: UISceneErrorDomain code 101).
    case geometryUpdateRefused(requested: OrientationMask, supported: OrientationMask)
    /// A zoom transition's `source` that names no `view`-kind view of the presenting (or
    /// pushing) controller, is missing, or is given for another transition (Scene+Zoom.swift).
    case invalidSource(String)

    public var code: String {
        switch self {
        case .alreadyPresenting: return "already-presenting"
        case .alreadyPresented: return "already-presented"
        case .nothingPresented: return "nothing-presented"
        case .notInNavigation: return "not-in-navigation"
        case .cannotPopRoot: return "cannot-pop-root"
        case .unknownController: return "unknown-controller"
        case .busy, .presentingWhileBusy: return "busy"
        case .curledPresenter: return "curl-cannot-present"
        case .invalidScene: return "invalid-scene"
        case .notInWindow: return "not-in-window"
        case .covered: return "covered"
        case .uncaughtException: return "uncaught-exception"
        case .noCommonOrientation: return "no-common-orientation"
        case .unsupportedPreferredOrientation: return "unsupported-preferred-orientation"
        case .unavailableInIOS: return "unavailable-in-ios"
        case .geometryUpdateRefused: return "geometry-update-refused"
        case .invalidSource: return "invalid-source"
        }
    }

    public var description: String {
        switch self {
        case .alreadyPresenting(let attempted, let on, let source, let presented, let ios):
            return ios.atLeast(13)
                ? "Attempt to present \(attempted) on \(on) (from \(source)) which is already presenting \(presented)."
                : "Warning: Attempt to present \(attempted) on \(on) which is already presenting \(presented)"
        case .alreadyPresented(let id, let reason, let ios):
            return "NSInvalidArgumentException: " + reason.text(id, ios: ios)
        case .nothingPresented(let id):
            return "\(id) neither presents nor is presented: nothing to dismiss"
        case .notInNavigation(let id):
            return "\(id) is not a navigation controller nor inside one"
        case .cannotPopRoot(let id):
            return "cannot pop the root of the navigation controller \(id)"
        case .unknownController(let id):
            return "no controller \(id) in the scene"
        case .busy(let action):
            return "a \(action.rawValue) transition is in flight"
        case .presentingWhileBusy(let attempted, let on, let source, let inFlight, let ios):
            let uikit =
                ios.atLeast(13)
                ? "Attempt to present \(attempted) on \(on) (from \(source)) while a presentation is in progress."
                : "Warning: Attempt to present \(attempted) on \(on) while a presentation is in progress!"
            return uikit + " (a \(inFlight.rawValue) transition is in flight)"
        case .curledPresenter(let attempted, let presenter):
            return "\(presenter) was presented with a partial curl and cannot present \(attempted): "
                + "a partial-curl controller \"is itself prevented from presenting any additional view controllers\""
        case .invalidScene(let reason):
            return "invalid scene: \(reason)"
        case .notInWindow(let attempted, let on, let source, let ios):
            return ios.atLeast(13)
                ? "Attempt to present \(attempted) on \(on) (from \(source)) whose view is not in the window hierarchy."
                : "Warning: Attempt to present \(attempted) on \(on) whose view is not in the window hierarchy!"
        case .covered(let navigation, let by):
            return "the navigation controller \(navigation)'s visible controller is covered by \(by)"
        case .uncaughtException(let name, let reason):
            return Self.terminating(name, reason)
        case .noCommonOrientation(let controller, let supported, let app, let window):
            // UIKit's console line, then the sandbox's own account of the masks.
            return Self.terminating(
                Self.invalidOrientation,
                "Supported orientations has no common orientation with the application, "
                    + "and [\(controller) shouldAutorotate] is returning YES")
                + " (app \(Self.short(app)), window \(Self.short(window)), \(controller) \(Self.short(supported)))"
        case .unsupportedPreferredOrientation(let controller, let preferred, let allowed):
            return Self.terminating(
                Self.invalidOrientation,
                "preferredInterfaceOrientationForPresentation '\(preferred.rawValue)' "
                    + "must match a supported interface orientation: \(allowed.names)")
                + " (\(controller))"
        case .unavailableInIOS(let api, let since, let ios):
            return
                "\(api) is iOS \(since)+; this scene is iOS \(ios.rawValue) (send \"ios\": \"\(since)\" or later in scene)"
        case .geometryUpdateRefused(let requested, let supported):
            return
                "Error Domain=UISceneErrorDomain Code=101 \"None of the requested orientations are supported by the view controller. Requested: \(requested.names.joined(separator: ", ")); Supported: \(supported.names.joined(separator: ", "))\""
        case .invalidSource(let reason):
            return reason
        }
    }
}

extension SceneError {
    /// UIKit's exception name for an impossible orientation (without "Exception": the
    /// decompile of iOS 26.1's UIKitCore, github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore).
    static let invalidOrientation = "UIApplicationInvalidInterfaceOrientation"

    /// The console's line for an uncaught exception (NSException's uncaught handler):
    /// "Terminating app due to uncaught exception 'NAME', reason: 'TEXT'".
    static func terminating(_ name: String, _ reason: String) -> String {
        "Terminating app due to uncaught exception '\(name)', reason: '\(reason)'"
    }

    /// A mask in the sandbox's own suffix, short enough for the wire's 300-byte message: UIKit's
    /// name for a named mask (`allButUpsideDown`), else the orientations joined by `+`, or `none`.
    static func short(_ mask: OrientationMask) -> String {
        if let named = OrientationMask.named.first(where: { $0.mask == mask }) { return named.name }
        return mask.names.isEmpty ? "none" : mask.names.joined(separator: "+")
    }

    /// Where a controller that cannot be presented or pushed already is: each has UIKit's own
    /// NSInvalidArgumentException text (SceneErrorTextTests; sources in docs/SCENE.md).
    public enum InHierarchy: Equatable, Sendable {
        /// `present` called on the controller itself.
        case itself
        /// In a navigation stack: `parent` is its navigation controller.
        case parent(String)
        /// A presented controller: `presenter` presents it.
        case presentedBy(String)
        /// On screen otherwise (the window's root).
        case active
        /// A push of an instance already in the hierarchy.
        case pushed

        /// UIKit's reason for `id`. "already being presented by" is iOS 13+'s text; before it the
        /// sandbox uses the older "active controller" (the release that changed it is not known).
        func text(_ id: String, ios: IOSVersion) -> String {
            switch self {
            case .itself:
                return "Application tried to present modal view controller on itself. Presenting controller is \(id)."
            case .parent(let parent):
                return "Application tried to present modally a view controller \(id) "
                    + "that has a parent view controller \(parent)."
            case .presentedBy(let presenter) where ios.atLeast(13):
                return "Application tried to present modally a view controller \(id) "
                    + "that is already being presented by \(presenter)."
            case .presentedBy, .active:
                return "Application tried to present modally an active controller \(id)."
            case .pushed:
                return "Pushing the same view controller instance more than once is not supported (\(id))"
            }
        }
    }
}
