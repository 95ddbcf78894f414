import TransitionCore

/// `{"type":"scene", …}`: set up (or leave, `root: null`) the session's scene.
struct SceneSetup: Equatable {
    var device: SceneDevice
    /// nil leaves scene mode.
    var root: SceneController?
    var interruptible: Bool
    var options: SceneOptions

    init(_ fields: MessageFields) throws(WireError) {
        try fields.onlyKnown([
            "type", "root", "device", "ios", "interruptible", "doublePresentation", "appOrientations",
            "windowOrientations",
            "containerForwardsOrientation", "rotationCallbacks", "rotationDuration", "contentPop",
        ])
        device = try fields.name("device", default: .phone)
        interruptible = try fields.bool("interruptible", default: false)
        let ios: IOSVersion = try fields.name("ios", default: .newest)
        options = SceneOptions(
            ios: ios,
            doublePresentation: try fields.name("doublePresentation", default: .refuse),
            appOrientations: try fields.orientationMask("appOrientations"),
            windowOrientations: try fields.orientationMask("windowOrientations"),
            containerForwardsOrientation: try fields.bool("containerForwardsOrientation", default: false),
            rotationCallbacks: try fields.name("rotationCallbacks", default: .default(for: ios)),
            rotationDuration: try Self.rotationDuration(fields),
            contentPop: try fields.bool("contentPop", default: true))
        if try fields.value("root") == .null {
            root = nil
        } else {
            var budget = SceneRequest.controllersPerMessage
            root = try SceneController(wire: try fields.value("root"), field: "root", budget: &budget)
        }
    }
}

extension SceneSetup {
    /// `rotationDuration`: seconds per quarter turn within `SceneOptions.rotationDurationRange`;
    /// absent: the device's (phone 0.3, tablet 0.4).
    static func rotationDuration(_ fields: MessageFields) throws(WireError) -> Double? {
        guard fields.has("rotationDuration") else { return nil }
        let range = SceneOptions.rotationDurationRange
        let seconds = try fields.number("rotationDuration")
        guard range.contains(seconds) else {
            throw WireError(
                .invalidField, "'rotationDuration' must be seconds in \(range.lowerBound)…\(range.upperBound)",
                field: "rotationDuration")
        }
        return seconds
    }
}

/// A scene operation as the wire asks for it, with how it runs.
struct SceneCommand: Equatable {
    var request: SceneRequest
    var animated: Bool
    /// The next pan drives it (`present` called from a gesture's `.began`).
    var interactive: Bool
    /// A zoom transition's source view (present, push): the id of a view of the presenting or
    /// pushing controller (`Scene.attachZoom`).
    var source: String? = nil
}

/// `device`, `attempt-rotation`, `update`, and iOS 16's `update-supported-orientations` and
/// `request-geometry-update`: what may turn the interface.
enum OrientationRequest: Equatable {
    case device(DeviceOrientation)
    case attempt
    case updateSupported
    case requestGeometry(OrientationMask)
    /// Absent fields keep the controller's current value; `preferredOrientation: null` clears it.
    case update(String, mask: OrientationMask?, shouldAutorotate: Bool?, preferred: InterfaceOrientation??)

    static func parse(_ type: String, _ fields: MessageFields) throws(WireError) -> OrientationRequest {
        switch type {
        case "device":
            try fields.onlyKnown(["type", "orientation"])
            guard let orientation: DeviceOrientation = try fields.optionalName("orientation") else {
                throw WireError(.missingField, "'orientation' is required", field: "orientation")
            }
            return .device(orientation)
        case "attempt-rotation":
            try fields.onlyKnown(["type"])
            return .attempt
        case "update-supported-orientations":
            try fields.onlyKnown(["type"])
            return .updateSupported
        case "request-geometry-update":
            try fields.onlyKnown(["type", "interfaceOrientations"])
            guard let mask = try fields.orientationMask("interfaceOrientations") else {
                throw WireError(.missingField, "'interfaceOrientations' is required", field: "interfaceOrientations")
            }
            return .requestGeometry(mask)
        default:  // update
            try fields.onlyKnown([
                "type", "controller", "supportedOrientations", "shouldAutorotate", "preferredOrientation",
            ])
            return .update(
                try fields.identifier("controller", required: true)!,
                mask: try fields.orientationMask("supportedOrientations"),
                shouldAutorotate: fields.has("shouldAutorotate")
                    ? try fields.bool("shouldAutorotate", default: true) : nil,
                preferred: fields.isNull("preferredOrientation")
                    ? .some(nil)
                    : (try fields.optionalName("preferredOrientation") as InterfaceOrientation?).map { .some($0) })
        }
    }
}

extension SceneCommand {
    /// The same request once it has run: a controller described in full is now an instance
    /// the scene knows, so trying again (after a cancel) uses it by id — the same object, no
    /// second `viewDidLoad`.
    var again: SceneCommand {
        var command = self
        switch request {
        case let .present(.controller(controller), from, style, transition):
            command.request = .present(.id(controller.id), from: from, style: style, transition: transition)
        case let .push(.controller(controller), navigation, transition):
            command.request = .push(.id(controller.id), navigation: navigation, transition: transition)
        default:
            break
        }
        return command
    }
}

/// present, dismiss, push or pop, with their arguments.
enum SceneRequest: Equatable {
    case present(SceneControllerReference, from: String?, style: PresentationStyle?, transition: TransitionKind?)
    case dismiss(String?)
    case push(SceneControllerReference, navigation: String?, transition: TransitionKind?)
    case pop(String?)

    /// Controllers one message may describe (a scene holds at most `SceneSession.instanceLimit`).
    static let controllersPerMessage = SceneSession.instanceLimit

    var action: SceneAction {
        switch self {
        case .present: return .present
        case .dismiss: return .dismiss
        case .push: return .push
        case .pop: return .pop
        }
    }

    /// Carries the request out on `scene` (which a refusal leaves unchanged).
    func perform(on scene: inout Scene, animated: Bool) throws(SceneError) -> SceneTransitionPlan {
        switch self {
        case let .present(controller, from, style, transition):
            return try scene.present(controller, from: from, style: style, transition: transition, animated: animated)
        case .dismiss(let id):
            return try scene.dismiss(id, animated: animated)
        case let .push(controller, navigation, transition):
            return try scene.push(controller, onto: navigation, transition: transition, animated: animated)
        case .pop(let navigation):
            return try scene.pop(from: navigation, animated: animated)
        }
    }

    static func command(_ action: SceneAction, _ fields: MessageFields) throws(WireError) -> SceneCommand {
        let common: Set<String> = ["type", "animated", "interactive"]
        let request: SceneRequest
        switch action {
        case .present:
            try fields.onlyKnown(common.union(["controller", "from", "style", "transition", "source"]))
            request = .present(
                try reference(fields), from: try fields.identifier("from"), style: try fields.optionalName("style"),
                transition: try fields.optionalName("transition"))
        case .dismiss:
            try fields.onlyKnown(common.union(["controller"]))
            request = .dismiss(try fields.identifier("controller"))
        case .push:
            try fields.onlyKnown(common.union(["controller", "navigation", "transition", "source"]))
            request = .push(
                try reference(fields), navigation: try fields.identifier("navigation"),
                transition: try fields.optionalName("transition"))
        case .pop:
            try fields.onlyKnown(common.union(["navigation"]))
            request = .pop(try fields.identifier("navigation"))
        }
        return SceneCommand(
            request: request, animated: try fields.bool("animated", default: true),
            interactive: try fields.bool("interactive", default: false), source: try fields.identifier("source"))
    }

    /// `controller`: an object (a new instance) or the id of one the scene has seen.
    private static func reference(_ fields: MessageFields) throws(WireError) -> SceneControllerReference {
        let value = try fields.value("controller")
        if case .string = value { return .id(try fields.identifier("controller")!) }
        var budget = controllersPerMessage
        return .controller(try SceneController(wire: value, field: "controller", budget: &budget))
    }
}
