import TransitionCore

/// Issue 14's `configure` fields: the release rule, rubber-banding, the spring completion's own
/// damping and the pitfall toggles. Checked strictly: a wrong type or name is `invalid-field`,
/// a number out of range `invalid-config` (from `TransitionConfiguration.validate()`), each
/// naming its field; nothing changes on any error.
extension SessionSettings {
    static func applyReleaseRules(_ fields: MessageFields, to c: inout TransitionConfiguration) throws(WireError) {
        if fields.has("releaseRule") {
            let name = try fields.string("releaseRule")
            guard let rule = ReleaseRule(rawValue: name) else {
                throw WireError(.invalidField, "'releaseRule' must be threshold or projection; got \(WireError.quoted(name))", field: "releaseRule")
            }
            c.releaseRule = rule
        }
        if fields.has("decelerationRate") { c.decelerationRate = try fields.number("decelerationRate") }
        if fields.has("rubberBand") {
            c.rubberBand = fields.isNull("rubberBand") ? nil : try fields.number("rubberBand")
        }
        if fields.has("completionDamping") { c.completionDamping = try fields.number("completionDamping") }
        if fields.has("pitfalls") { c.pitfalls = try pitfalls(fields) }
    }

    /// An array of distinct pitfall names. Longer than the list of pitfalls is refused before a
    /// name is read (it must repeat one), so a huge array costs nothing to turn down.
    private static func pitfalls(_ fields: MessageFields) throws(WireError) -> Set<Pitfall> {
        let names = Pitfall.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .array(let items) = try fields.value("pitfalls") else {
            throw WireError(.invalidField, "'pitfalls' must be an array of names (\(names))", field: "pitfalls")
        }
        guard items.count <= Pitfall.allCases.count else {
            throw WireError(.invalidField, "'pitfalls' names each of \(names) at most once; got \(items.count) items", field: "pitfalls")
        }
        var out: Set<Pitfall> = []
        for item in items {
            guard case .string(let name) = item else {
                throw WireError(.invalidField, "'pitfalls' must be an array of names (\(names)); got \(item.typeName)", field: "pitfalls")
            }
            guard let pitfall = Pitfall(rawValue: name) else {
                throw WireError(.invalidField, "'pitfalls' must name \(names); got \(WireError.quoted(name))", field: "pitfalls")
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
    }
}
