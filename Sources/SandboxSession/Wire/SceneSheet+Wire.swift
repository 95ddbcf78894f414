import TransitionCore

// A controller's `sheet` as the wire gives it: `{"detents":["medium","large",{"id":"peek",
// "height":200}],"selectedDetent":"medium","largestUndimmedDetent":"medium",
// "prefersGrabberVisible":true,…}`, parsed strictly (SceneSheetWireTests). Whether the release
// has it and whether the controller is a sheet is the scene's check (`checkSheet`).

extension SheetDetentConfiguration {
    /// The bound on `preferredCornerRadius` (pt): a card is 390 pt wide on the phone (chosen).
    static let maximumCornerRadius = 100.0

    /// The `sheet` field of a controller object, or nil when there is none.
    static func parse(_ fields: MessageFields) throws(WireError) -> SheetDetentConfiguration? {
        guard fields.has("sheet") else { return nil }
        let sheet = try fields.object("sheet")
        do throws(WireError) {
            return try SheetDetentConfiguration(wire: sheet)
        } catch {
            var nested = error
            nested.field = error.field.map { "sheet.\($0)" } ?? "sheet"
            throw nested
        }
    }

    private init(wire fields: MessageFields) throws(WireError) {
        try fields.onlyKnown([
            "detents", "selectedDetent", "largestUndimmedDetent", "prefersGrabberVisible",
            "prefersScrollingExpandsWhenScrolledToEdge", "prefersEdgeAttachedInCompactHeight",
            "widthFollowsPreferredContentSizeWhenEdgeAttached", "preferredCornerRadius",
        ])
        var detents: [SheetDetent] = [.large]  // UIKit's default: `[.large()]`
        if fields.has("detents") {
            detents = try Self.detents(try fields.value("detents"))
        }
        var radius: Double?
        if fields.has("preferredCornerRadius") {
            let value = try fields.number("preferredCornerRadius")
            guard value >= 0, value <= Self.maximumCornerRadius else {
                throw WireError(
                    .invalidField, "'preferredCornerRadius' must be within 0…\(Int(Self.maximumCornerRadius))",
                    field: "preferredCornerRadius")
            }
            radius = value
        }
        self.init(
            detents: detents, selectedDetent: try fields.identifier("selectedDetent"),
            largestUndimmedDetent: try fields.identifier("largestUndimmedDetent"),
            prefersGrabberVisible: try fields.bool("prefersGrabberVisible", default: false),
            prefersScrollingExpandsWhenScrolledToEdge: try fields.bool(
                "prefersScrollingExpandsWhenScrolledToEdge", default: true),
            prefersEdgeAttachedInCompactHeight: try fields.bool("prefersEdgeAttachedInCompactHeight", default: false),
            widthFollowsPreferredContentSizeWhenEdgeAttached: try fields.bool(
                "widthFollowsPreferredContentSizeWhenEdgeAttached", default: false),
            preferredCornerRadius: radius)
        for (key, value) in [("selectedDetent", selectedDetent), ("largestUndimmedDetent", largestUndimmedDetent)] {
            if let value, detent(value) == nil {
                throw WireError(
                    .invalidField, "'\(key)' names no detent of this sheet: \(WireError.quoted(value))", field: key)
            }
        }
    }

    /// 1…`maximumDetents` detents, each `"medium"`, `"large"` or `{"id","height"}`, ids distinct.
    private static func detents(_ value: JSONValue) throws(WireError) -> [SheetDetent] {
        guard case .array(let items) = value, !items.isEmpty, items.count <= maximumDetents else {
            throw WireError(
                .invalidField, "'detents' must be an array of 1…\(maximumDetents) detents", field: "detents")
        }
        var detents: [SheetDetent] = []
        for (index, item) in items.enumerated() {
            let field = "detents[\(index)]"
            let detent: SheetDetent
            switch item {
            case .string("medium"): detent = .medium
            case .string("large"): detent = .large
            case .object:
                let fields = try MessageFields(item)
                do throws(WireError) {
                    try fields.onlyKnown(["id", "height"])
                    let id = try fields.identifier("id", required: true)!
                    guard id != "medium", id != "large" else {
                        throw WireError(.invalidField, "a custom detent's id cannot be \"\(id)\"", field: "id")
                    }
                    let height = try fields.number("height")
                    let (low, high) = (SheetDetent.minimumCustomHeight, SheetDetent.maximumCustomHeight)
                    guard height >= low, height <= high else {
                        throw WireError(
                            .invalidField, "'height' must be within \(Int(low))…\(Int(high)) pt", field: "height")
                    }
                    detent = .custom(id: id, height: height)
                } catch {
                    var nested = error
                    nested.field = error.field.map { "\(field).\($0)" } ?? field
                    throw nested
                }
            default:
                throw WireError(
                    .invalidField, "'\(field)' must be \"medium\", \"large\" or {\"id\",\"height\"}", field: field)
            }
            guard !detents.contains(where: { $0.identifier == detent.identifier }) else {
                throw WireError(.invalidField, "duplicate detent \(WireError.quoted(detent.identifier))", field: field)
            }
            detents.append(detent)
        }
        return detents
    }
}

extension ServerMessages {
    /// `scene-state`'s `sheets`: each phone sheet with detents, the detent it rests at and
    /// every detent's card top (device y), so the page can draw them; points to the frames'
    /// precision (`FramePrecision.points`: 0.56 × 753 is no round number).
    static func writeSheets(_ sheets: [SheetDetentState], to w: inout JSONWriter) {
        w.beginArray()
        for sheet in sheets {
            w.beginObject()
            w.key("controller"); w.string(sheet.controller)
            w.key("detent"); w.string(sheet.selected)
            w.key("top"); w.fixed(sheet.top, FramePrecision.points)
            w.key("bottom"); w.fixed(sheet.bottom, FramePrecision.points)
            w.key("moving"); w.bool(sheet.moving)
            w.key("detents")
            w.beginArray()
            for detent in sheet.detents {
                w.beginObject()
                w.key("id"); w.string(detent.id)
                w.key("top"); w.fixed(detent.top, FramePrecision.points)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
    }
}

/// `{"type":"sheet","controller":"places","selectedDetent":"large","animated":true}`: the app sets
/// the top-most sheet's `selectedDetentIdentifier`, inside `animateChanges` when `animated`
/// (default false). SessionSheetDetentTests.
struct SheetRequest: Equatable {
    var controller: String
    var selectedDetent: String
    var animated: Bool

    init(_ fields: MessageFields) throws(WireError) {
        try fields.onlyKnown(["type", "controller", "selectedDetent", "animated"])
        controller = try fields.identifier("controller", required: true)!
        selectedDetent = try fields.identifier("selectedDetent", required: true)!
        animated = try fields.bool("animated", default: false)
    }
}
