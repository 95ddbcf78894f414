import TransitionCore

// A controller as the wire describes it (`{"id":…,"presentationStyle":…}`), parsed strictly, and
// the text bounds every scene message shares.

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
                "preferredOrientation", "isModalInPresentation", "views", "sheet",
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
                // UIKit's default: the system's choice, a page sheet from iOS 13 (PresentationStyle.resolved).
                presentationStyle: try fields.name("presentationStyle", default: .automatic),
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
                    .uikitValue,
                isModalInPresentation: try fields.bool("isModalInPresentation", default: false),
                views: try SceneView.list(fields), sheet: try SheetDetentConfiguration.parse(fields))
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
