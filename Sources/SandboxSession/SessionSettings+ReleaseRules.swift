import TransitionCore

/// The `configure` fields beyond UIKit's own: the release rule, rubber-banding, the spring completion's own
/// damping, the pitfall toggles and the driver (with the property animator's settings). Checked strictly: a wrong type or name is `invalid-field`,
/// a number out of range `invalid-config` (from `TransitionConfiguration.validate()`), each
/// naming its field; nothing changes on any error.
extension SessionSettings {
    static func applyReleaseRules(_ fields: MessageFields, to c: inout TransitionConfiguration) throws(WireError) {
        if fields.has("releaseRule") {
            let name = try fields.string("releaseRule")
            guard let rule = ReleaseRule(rawValue: name) else {
                throw WireError(
                    .invalidField, "'releaseRule' must be threshold or projection; got \(WireError.quoted(name))",
                    field: "releaseRule")
            }
            c.releaseRule = rule
        }
        if fields.has("decelerationRate") { c.decelerationRate = try fields.number("decelerationRate") }
        if fields.has("rubberBand") {
            c.rubberBand = fields.isNull("rubberBand") ? nil : try fields.number("rubberBand")
        }
        if fields.has("completionDamping") { c.completionDamping = try fields.number("completionDamping") }
        if fields.has("pitfalls") { c.pitfalls = try pitfalls(fields) }
        if fields.has("driver") {
            let name = try fields.string("driver")
            guard let driver = TransitionDriver(rawValue: name) else {
                throw WireError(
                    .invalidField,
                    "'driver' must be percent-driven or property-animator; got \(WireError.quoted(name))",
                    field: "driver")
            }
            c.driver = driver
        }
        if fields.has("propertyAnimator") {
            let object = try fields.object("propertyAnimator")
            do {
                try applyPropertyAnimator(object, to: &c.propertyAnimator)
            } catch {
                var nested = error  // name the field by its path, as validate() does
                nested.field = error.field.map { "propertyAnimator.\($0)" }
                throw nested
            }
        }
    }

    /// `{"curve": …, "scrubsLinearly": true, "durationFactor": 0, "pausesOnCompletion": false}`;
    /// absent fields are kept.
    private static func applyPropertyAnimator(_ fields: MessageFields, to settings: inout PropertyAnimatorSettings)
        throws(WireError)
    {
        try fields.onlyKnown(["curve", "scrubsLinearly", "durationFactor", "pausesOnCompletion"])
        if fields.has("curve") {
            let value = try fields.value("curve")
            if case .string(let name) = value {
                guard let curve = TimingCurve(name: name) else {
                    let names = TimingCurve.named.map(\.name).joined(separator: ", ")
                    throw WireError(
                        .invalidField,
                        "'curve' must be one of \(names) or [x1, y1, x2, y2]; got \(WireError.quoted(name))",
                        field: "curve")
                }
                settings.curve = curve
            } else {
                let p = try fields.numbers("curve", count: 4)
                guard (0...1).contains(p[0]), (0...1).contains(p[2]), (-5...5).contains(p[1]), (-5...5).contains(p[3])
                else {
                    throw WireError(
                        .invalidConfig, "curve control points need x1, x2 in [0, 1] and y1, y2 in [-5, 5]",
                        field: "curve")
                }
                settings.curve = .cubicBezier(CubicBezier(x1: p[0], y1: p[1], x2: p[2], y2: p[3]))
            }
        }
        if fields.has("scrubsLinearly") {
            guard case .bool(let flag) = try fields.value("scrubsLinearly") else {
                throw WireError(.invalidField, "'scrubsLinearly' must be true or false", field: "scrubsLinearly")
            }
            settings.scrubsLinearly = flag
        }
        if fields.has("durationFactor") { settings.durationFactor = try fields.number("durationFactor") }
        if fields.has("pausesOnCompletion") {
            guard case .bool(let flag) = try fields.value("pausesOnCompletion") else {
                throw WireError(
                    .invalidField, "'pausesOnCompletion' must be true or false", field: "pausesOnCompletion")
            }
            settings.pausesOnCompletion = flag
        }
    }

    /// An array of distinct pitfall names. Longer than the list of pitfalls is refused before a
    /// name is read (it must repeat one), so a huge array costs nothing to turn down.
    private static func pitfalls(_ fields: MessageFields) throws(WireError) -> Set<Pitfall> {
        let names = Pitfall.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .array(let items) = try fields.value("pitfalls") else {
            throw WireError(.invalidField, "'pitfalls' must be an array of names (\(names))", field: "pitfalls")
        }
        guard items.count <= Pitfall.allCases.count else {
            throw WireError(
                .invalidField, "'pitfalls' names each of \(names) at most once; got \(items.count) items",
                field: "pitfalls")
        }
        var out: Set<Pitfall> = []
        for item in items {
            guard case .string(let name) = item else {
                throw WireError(
                    .invalidField, "'pitfalls' must be an array of names (\(names)); got \(item.typeName)",
                    field: "pitfalls")
            }
            guard let pitfall = Pitfall(rawValue: name) else {
                throw WireError(
                    .invalidField, "'pitfalls' must name \(names); got \(WireError.quoted(name))", field: "pitfalls")
            }
            guard out.insert(pitfall).inserted else {
                throw WireError(.invalidField, "'pitfalls' names \(WireError.quoted(name)) twice", field: "pitfalls")
            }
        }
        return out
    }

    /// The issue-14 fields of the effective configuration (pitfalls in `Pitfall.allCases` order).
    func writeReleaseRules(to w: inout JSONWriter) {
        let c = configuration
        w.key("releaseRule"); w.string(c.releaseRule.rawValue)
        w.key("decelerationRate"); w.number(c.decelerationRate)
        w.key("rubberBand")
        if let constant = c.rubberBand { w.number(constant) } else { w.null() }
        w.key("completionDamping"); w.number(c.completionDamping)
        w.key("pitfalls")
        w.strings(Pitfall.allCases.filter { c.pitfalls.contains($0) }.map(\.rawValue))
        w.key("driver"); w.string(c.driver.rawValue)
        let animator = c.propertyAnimator
        w.key("propertyAnimator")
        w.beginObject()
        w.key("curve")
        if let name = animator.curve.name {
            w.string(name)
        } else if case .cubicBezier(let b) = animator.curve {
            w.numbers([b.x1, b.y1, b.x2, b.y2])
        }
        w.key("scrubsLinearly"); w.bool(animator.scrubsLinearly)
        w.key("durationFactor"); w.number(animator.durationFactor)
        w.key("pausesOnCompletion"); w.bool(animator.pausesOnCompletion)
        w.endObject()
    }
}
