import TransitionCore

/// A session's settings: the engine's configuration plus the server-side frame rate.
public struct SessionSettings: Equatable, Sendable {
    public var configuration = TransitionConfiguration(kind: .pop)
    /// Frames per second while finishing or cancelling, within `fpsRange`.
    public private(set) var fps = 60

    /// The frame rates a session may run at: the one place the range is written (the command
    /// line, the `configure` message and the tools all check against it).
    public static let fpsRange = 1...240

    /// The defaults (a pop at 60 fps).
    public init() {}

    /// The defaults at another frame rate; nil outside `fpsRange`.
    public init?(fps: Int) {
        guard Self.fpsRange.contains(fps) else { return nil }
        self.fps = fps
    }

    /// Every field a `configure` message may have; `pan` checks a script's `config` against it
    /// before it runs anything (`test_cli_errors.py`: `test_a_misspelt_config_field_is_named_before_any_run`).
    public static let configureFields: Set<String> = [
        "type", "transition", "operation", "duration", "distance", "axis", "direction", "slop", "threshold",
        "clamp", "completionSpeed", "completionCurve", "spring", "flingVelocity", "fps", "container", "originFrame",
        "timeScale",
        // What UIKit leaves to the app (SessionSettings+ReleaseRules.swift).
        "releaseRule", "decelerationRate", "rubberBand", "pitfalls", "completionDamping", "driver", "propertyAnimator",
    ]

    /// Applies a `configure` message: every field present replaces the current value, absent
    /// fields are kept (a new `transition` without `duration` takes that kind's default).
    /// Returns the new, validated settings; throws and changes nothing on any bad field.
    func applying(_ fields: MessageFields) throws(WireError) -> SessionSettings {
        try fields.onlyKnown(Self.configureFields)
        var next = self
        var c = next.configuration
        if fields.has("transition") {
            let name = try fields.string("transition")
            guard let kind = TransitionKind(rawValue: name) else {
                let kinds = TransitionKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw WireError(
                    .invalidField, "'transition' must be one of \(kinds); got \(WireError.quoted(name))",
                    field: "transition")
            }
            if kind != c.kind && !fields.has("duration") { c.duration = kind.defaultDuration }
            c.kind = kind
        }
        if fields.has("operation") {
            let name = try fields.string("operation")
            guard let operation = TransitionOperation(rawValue: name) else {
                throw WireError(
                    .invalidField, "'operation' must be present or dismiss; got \(WireError.quoted(name))",
                    field: "operation")
            }
            c.operation = operation
        }
        if fields.has("duration") { c.duration = try fields.number("duration") }
        if fields.has("distance") { c.distance = try fields.number("distance") }
        if fields.has("slop") { c.pan.slop = try fields.number("slop") }
        if fields.has("axis") {
            let name = try fields.string("axis")
            guard let axis = PanAxis(rawValue: name) else {
                throw WireError(
                    .invalidField, "'axis' must be x, y or free; got \(WireError.quoted(name))", field: "axis")
            }
            c.pan.axis = axis
        }
        if fields.has("direction") {
            let name = try fields.string("direction")
            guard let direction = PanDirection(rawValue: name) else {
                throw WireError(
                    .invalidField, "'direction' must be both, positive or negative; got \(WireError.quoted(name))",
                    field: "direction")
            }
            c.pan.direction = direction
        }
        if fields.has("threshold") { c.threshold = try fields.number("threshold") }
        if fields.has("clamp") {
            let clamp = try fields.numbers("clamp", count: 2)
            c.clampLower = clamp[0]
            c.clampUpper = clamp[1]
        }
        if fields.has("completionSpeed") { c.completionSpeed = try fields.number("completionSpeed") }
        if fields.has("completionCurve") { c.completionCurve = try Self.completionCurve(fields) }
        if fields.has("spring") {
            let spring = try fields.object("spring")
            do {
                try spring.onlyKnown(["damping", "initialVelocity"])
                if spring.has("damping") { c.springDamping = try spring.number("damping") }
                if spring.has("initialVelocity") { c.springInitialVelocity = try spring.number("initialVelocity") }
            } catch {
                var nested = error  // name the field by its path, as validate() does
                nested.field = error.field.map { "spring.\($0)" }
                throw nested
            }
        }
        if fields.has("flingVelocity") {
            c.flingVelocity = fields.isNull("flingVelocity") ? nil : try fields.number("flingVelocity")
        }
        if fields.has("container") {
            let size = try fields.numbers("container", count: 2)
            c.container = Size(width: size[0], height: size[1])
        }
        if fields.has("originFrame") {
            if fields.isNull("originFrame") {
                c.originFrame = nil
            } else {
                let r = try fields.numbers("originFrame", count: 4)
                c.originFrame = Rect(x: r[0], y: r[1], width: r[2], height: r[3])
            }
        }
        try Self.applyReleaseRules(fields, to: &c)
        if fields.has("timeScale") { c.timeScale = try fields.number("timeScale") }
        if fields.has("fps") {
            let fps = try fields.integer("fps")
            guard Self.fpsRange.contains(fps) else {
                var error = WireError(.invalidConfig, "fps must be a whole number in [1, 240]; got \(fps)")
                error.field = "fps"
                throw error
            }
            next.fps = fps
        }
        do {
            try c.validate()
        } catch {
            throw WireError(error)
        }
        next.configuration = c
        return next
    }

    private static func completionCurve(_ fields: MessageFields) throws(WireError) -> CompletionCurve {
        let value = try fields.value("completionCurve")
        if case .string(let name) = value {
            guard let curve = CompletionCurve(name: name) else {
                let names = (TimingCurve.named.map(\.name) + ["spring"]).joined(separator: ", ")
                throw WireError(
                    .invalidField,
                    "'completionCurve' must be one of \(names) or [x1, y1, x2, y2]; got \(WireError.quoted(name))",
                    field: "completionCurve")
            }
            return curve
        }
        let p = try fields.numbers("completionCurve", count: 4)
        guard (0...1).contains(p[0]), (0...1).contains(p[2]), (-5...5).contains(p[1]), (-5...5).contains(p[3]) else {
            var error = WireError(
                .invalidConfig, "completionCurve control points need x1, x2 in [0, 1] and y1, y2 in [-5, 5]")
            error.field = "completionCurve"
            throw error
        }
        return .timing(.cubicBezier(CubicBezier(x1: p[0], y1: p[1], x2: p[2], y2: p[3])))
    }

    /// The full effective configuration, as `welcome` and `configured` carry it.
    func write(to w: inout JSONWriter) {
        let c = configuration
        w.beginObject()
        w.key("transition"); w.string(c.kind.rawValue)
        w.key("operation"); w.string(c.operation.rawValue)
        w.key("duration"); w.number(c.duration)
        w.key("distance"); w.number(c.distance)
        w.key("axis"); w.string(c.pan.axis.rawValue)
        w.key("direction"); w.string(c.pan.direction.rawValue)
        w.key("slop"); w.number(c.pan.slop)
        w.key("threshold"); w.number(c.threshold)
        w.key("clamp"); w.numbers([c.clampLower, c.clampUpper])
        w.key("completionSpeed"); w.number(c.completionSpeed)
        w.key("completionCurve")
        switch c.completionCurve {
        case .spring: w.string("spring")
        case .timing(let curve):
            if let name = curve.name {
                w.string(name)
            } else if case .cubicBezier(let b) = curve {
                w.numbers([b.x1, b.y1, b.x2, b.y2])
            }
        }
        w.key("spring")
        w.beginObject()
        w.key("damping"); w.number(c.springDamping)
        w.key("initialVelocity"); w.number(c.springInitialVelocity)
        w.endObject()
        w.key("flingVelocity")
        if let fling = c.flingVelocity { w.number(fling) } else { w.null() }
        w.key("fps"); w.integer(fps)
        w.key("timeScale"); w.number(c.timeScale)
        w.key("container"); w.numbers([c.container.width, c.container.height])
        let origin = c.effectiveOriginFrame
        w.key("originFrame"); w.numbers([origin.minX, origin.minY, origin.width, origin.height])
        writeReleaseRules(to: &w)
        w.endObject()
    }
}
