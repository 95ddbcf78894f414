import TransitionCore

// A controller's `views` as the wire gives them: `[{"id":"thumb","kind":"view",
// "frame":{"x":16,"y":120,"width":120,"height":90}}]`, parsed strictly. SceneViewWireTests.

extension SceneView {
    /// The `views` field of a controller object: at most `maximumPerController` views with
    /// distinct ids, each frame finite, within ±`maximumExtent` and with a positive size.
    static func list(_ fields: MessageFields) throws(WireError) -> [SceneView] {
        guard fields.has("views") else { return [] }
        guard case .array(let items) = try fields.value("views") else {
            throw WireError(.invalidField, "'views' must be an array of view objects", field: "views")
        }
        guard items.count <= maximumPerController else {
            throw WireError(
                .invalidField, "'views' holds at most \(maximumPerController) views, got \(items.count)",
                field: "views")
        }
        var views: [SceneView] = []
        for (index, item) in items.enumerated() {
            let field = "views[\(index)]"
            do throws(WireError) {
                let view = try SceneView(wire: item)
                guard !views.contains(where: { $0.id == view.id }) else {
                    throw WireError(.invalidField, "duplicate view id \(WireError.quoted(view.id))", field: "id")
                }
                views.append(view)
            } catch {
                var nested = error
                nested.field = error.field.map { "\(field).\($0)" } ?? field
                throw nested
            }
        }
        return views
    }

    private init(wire value: JSONValue) throws(WireError) {
        guard case .object = value else {
            throw WireError(.invalidField, "a view must be an object, got \(value.typeName)")
        }
        let fields = try MessageFields(value)
        try fields.onlyKnown(["id", "kind", "frame", "atLeadingEdge"])
        let id = try fields.identifier("id", required: true)!
        let kind: Kind = try fields.name("kind", default: .view)
        let atLeadingEdge = try Self.atLeadingEdge(fields, kind: kind)
        guard fields.has("frame") else { throw WireError(.invalidField, "'frame' is required", field: "frame") }
        let frame = try fields.object("frame")
        try frame.onlyKnown(["x", "y", "width", "height"])
        var numbers: [Double] = []
        for key in ["x", "y", "width", "height"] {
            let number = try frame.number(key)
            guard abs(number) <= Self.maximumExtent else {
                throw WireError(
                    .invalidField, "'frame.\(key)' must be within ±\(Int(Self.maximumExtent))", field: "frame.\(key)")
            }
            if key == "width" || key == "height", number <= 0 {
                throw WireError(.invalidField, "'frame.\(key)' must be greater than 0", field: "frame.\(key)")
            }
            numbers.append(number)
        }
        self.init(
            id: id, kind: kind, frame: Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]),
            atLeadingEdge: atLeadingEdge)
    }

    /// `atLeadingEdge` (default true): a horizontal scroll view's only; on another kind it
    /// would mean nothing, so it is refused (SceneViewWireTests).
    private static func atLeadingEdge(_ fields: MessageFields, kind: Kind) throws(WireError) -> Bool {
        guard fields.has("atLeadingEdge") else { return true }
        guard kind == .horizontalScroll else {
            throw WireError(
                .invalidField, "'atLeadingEdge' is a horizontal-scroll view's; this view is \(kind.rawValue)",
                field: "atLeadingEdge")
        }
        return try fields.bool("atLeadingEdge", default: true)
    }
}
