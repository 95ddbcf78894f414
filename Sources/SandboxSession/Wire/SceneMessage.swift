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
            "type", "root", "device", "interruptible", "doublePresentation", "appOrientations", "windowOrientations",
            "containerForwardsOrientation", "rotationCallbacks",
        ])
        device = try fields.name("device", default: .phone)
        interruptible = try fields.bool("interruptible", default: false)
        options = SceneOptions(
            doublePresentation: try fields.name("doublePresentation", default: .refuse),
            appOrientations: try fields.orientationMask("appOrientations"),
            windowOrientations: try fields.orientationMask("windowOrientations"),
            containerForwardsOrientation: try fields.bool("containerForwardsOrientation", default: false),
            rotationCallbacks: try fields.name("rotationCallbacks", default: .viewWillTransition))
        if try fields.value("root") == .null {
            root = nil
        } else {
            var budget = SceneRequest.controllersPerMessage
            root = try SceneController(wire: try fields.value("root"), field: "root", budget: &budget)
        }
    }
}

/// A scene operation as the wire asks for it, with how it runs.
struct SceneCommand: Equatable {
    var request: SceneRequest
    var animated: Bool
    /// The next pan drives it (`present` called from a gesture's `.began`).
    var interactive: Bool
}

/// `device`, `attempt-rotation`, `update`: what may turn the interface.
enum OrientationRequest: Equatable {
    case device(DeviceOrientation)
    case attempt
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
            try fields.onlyKnown(common.union(["controller", "from", "style", "transition"]))
            request = .present(
                try reference(fields), from: try fields.identifier("from"), style: try fields.optionalName("style"),
                transition: try fields.optionalName("transition"))
        case .dismiss:
            try fields.onlyKnown(common.union(["controller"]))
            request = .dismiss(try fields.identifier("controller"))
        case .push:
            try fields.onlyKnown(common.union(["controller", "navigation", "transition"]))
            request = .push(
                try reference(fields), navigation: try fields.identifier("navigation"),
                transition: try fields.optionalName("transition"))
        case .pop:
            try fields.onlyKnown(common.union(["navigation"]))
            request = .pop(try fields.identifier("navigation"))
        }
        return SceneCommand(
            request: request, animated: try fields.bool("animated", default: true),
            interactive: try fields.bool("interactive", default: false))
    }

    /// `controller`: an object (a new instance) or the id of one the scene has seen.
    private static func reference(_ fields: MessageFields) throws(WireError) -> SceneControllerReference {
        let value = try fields.value("controller")
        if case .string = value { return .id(try fields.identifier("controller")!) }
        var budget = controllersPerMessage
        return .controller(try SceneController(wire: value, field: "controller", budget: &budget))
    }
}

extension SceneController {
    /// Ids and titles: 1–64 bytes of UTF-8 without control or invisible formatting characters
    /// (they are echoed in every `scene-state` and in errors, so both are bounded, and a viewer
    /// reads them as they are: no right-to-left override, zero-width joiner or line separator
    /// dressing one id up as another).
    static let maximumTextBytes = 64

    /// A controller object from the wire; `budget` counts the controllers one message may
    /// describe (nesting is bounded by it too, and by UIKit: no navigation inside a stack).
    init(wire value: JSONValue, field: String, budget: inout Int) throws(WireError) {
        guard case .object = value else {
            throw WireError(
                .invalidField, "'\(field)' must be a controller object, got \(value.typeName)", field: field)
        }
        budget -= 1
        guard budget >= 0 else {
            throw WireError(
                .invalidField, "a message describes at most \(SceneRequest.controllersPerMessage) controllers",
                field: field)
        }
        let fields = try MessageFields(value)
        do throws(WireError) {
            try fields.onlyKnown([
                "id", "title", "kind", "stack", "presentationStyle", "transitionStyle", "definesPresentationContext",
                "providesPresentationContextTransitionStyle", "supportedOrientations", "shouldAutorotate",
                "preferredOrientation",
            ])
            let id = try fields.identifier("id", required: true)!
            let title = try fields.identifier("title")
            let navigation = try fields.optionalString("kind", allowed: ["plain", "navigation"]) == "navigation"
            var kind = Kind.plain
            if navigation {
                guard case .array(let items) = try fields.value("stack") else {
                    throw WireError(.invalidField, "'stack' must be an array of controllers", field: "stack")
                }
                var stack: [SceneController] = []
                for (index, item) in items.enumerated() {
                    stack.append(try SceneController(wire: item, field: "stack[\(index)]", budget: &budget))
                }
                kind = .navigation(stack: stack)
            } else if fields.has("stack") {
                throw WireError(.invalidField, "'stack' is for \"kind\":\"navigation\"", field: "stack")
            }
            self.init(
                id: id, title: title, kind: kind,
                presentationStyle: try fields.name("presentationStyle", default: .fullScreen),
                transitionStyle: try fields.name("transitionStyle", default: .coverVertical),
                // UIKit: "Some system-provided view controllers, such as UINavigationController,
                // change the default value to true."
                definesPresentationContext: try fields.bool("definesPresentationContext", default: navigation),
                providesPresentationContextTransitionStyle: try fields.bool(
                    "providesPresentationContextTransitionStyle", default: false),
                supportedOrientations: try fields.orientationMask("supportedOrientations")?.rawValue,
                shouldAutorotate: try fields.bool("shouldAutorotate", default: true),
                preferredOrientationForPresentation: (try fields.optionalName("preferredOrientation")
                    as InterfaceOrientation?)?
                    .uikitValue)
        } catch {
            // Name the field by its path from the message (`root.stack[1].id`).
            var nested = error
            if let inner = error.field, !inner.hasPrefix(field) { nested.field = "\(field).\(inner)" }
            throw nested
        }
    }
}

extension MessageFields {
    /// Control (Cc), format (Cf: bidi overrides, zero-width joiners, BOM), line and paragraph
    /// separators (Zl, Zp), unassigned and private use.
    static let invisible: Set<Unicode.GeneralCategory> = [
        .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate,
    ]

    func bool(_ key: String, default fallback: Bool) throws(WireError) -> Bool {
        guard has(key) else { return fallback }
        guard case .bool(let value) = try value(key) else {
            throw WireError(.invalidField, "'\(key)' must be true or false", field: key)
        }
        return value
    }

    /// An optional string that must be one of `allowed`.
    func optionalString(_ key: String, allowed: [String]) throws(WireError) -> String? {
        guard has(key) else { return nil }
        let text = try string(key)
        guard allowed.contains(text) else {
            throw WireError(
                .invalidField,
                "'\(key)' must be one of \(allowed.joined(separator: ", ")); got \(WireError.quoted(text))", field: key)
        }
        return text
    }

    /// An optional wire name of a `RawRepresentable` enum (a style, a transition kind, a device).
    func optionalName<T: RawRepresentable & CaseIterable>(_ key: String) throws(WireError) -> T?
    where T.RawValue == String {
        guard has(key) else { return nil }
        let text = try string(key)
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw WireError(
                .invalidField, "'\(key)' must be one of \(names); got \(WireError.quoted(text))", field: key)
        }
        return value
    }

    func name<T: RawRepresentable & CaseIterable>(_ key: String, default fallback: T) throws(WireError) -> T
    where T.RawValue == String {
        try optionalName(key) ?? fallback
    }

    /// Orientations as the wire gives them: an array of names (`portrait`, `landscapeLeft`, …
    /// or `landscape`, `all`, `allButUpsideDown`) or UIKit's mask number (2, 4, 8, 16 and sums).
    func orientationMask(_ key: String) throws(WireError) -> OrientationMask? {
        guard has(key) else { return nil }
        let value = try value(key)
        let invalid = WireError(
            .invalidField,
            "'\(key)' must be a non-empty array of orientation names (portrait, portraitUpsideDown, landscapeLeft, landscapeRight, landscape, all, allButUpsideDown) or a mask of 2, 4, 8, 16",
            field: key)
        switch value {
        // An empty set is refused: UIKit raises for a controller that supports no orientation.
        case .number:
            let number = try integer(key)
            let mask = OrientationMask(rawValue: number)
            guard number > 0, mask.isValid else { throw invalid }
            return mask
        case .array(let items):
            guard items.count <= 8 else { throw invalid }
            let names = items.compactMap(\.string)
            guard names.count == items.count, let mask = OrientationMask(names: names), !mask.isEmpty else {
                throw invalid
            }
            return mask
        default:
            throw invalid
        }
    }

    /// A controller id or title: a string of 1–64 bytes without control characters.
    func identifier(_ key: String, required: Bool = false) throws(WireError) -> String? {
        guard has(key) || required else { return nil }
        let text = try string(key)
        let bytes = text.utf8.count
        guard bytes >= 1, bytes <= SceneController.maximumTextBytes,
            !text.unicodeScalars.contains(where: { Self.invisible.contains($0.properties.generalCategory) })
        else {
            throw WireError(
                .invalidField,
                "'\(key)' must be 1–\(SceneController.maximumTextBytes) bytes without control or formatting characters",
                field: key)
        }
        return text
    }
}
