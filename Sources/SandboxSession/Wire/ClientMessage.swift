import TransitionCore

/// A message from a client, parsed and type-checked (docs/PROTOCOL.md).
enum ClientMessage {
    case configure(MessageFields)
    case pointer(PointerMessage)
    case ping(seq: Int, time: Double)
    case join(session: String)
    case play
    case scene(SceneSetup)
    case sceneCommand(SceneCommand)
    case orientation(OrientationRequest)
    case sheet(SheetRequest)

    /// The message alone (its request id, if any, checked and dropped: `ClientRequest.parse`).
    static func parse(_ bytes: [UInt8]) throws(WireError) -> ClientMessage {
        try ClientRequest.parse(bytes).message
    }

    /// Every message, through `JSONValue` (the reference the fast path is tested against).
    static func parseValue(_ bytes: [UInt8]) throws(WireError) -> ClientMessage {
        let fields = try MessageFields(try JSONValue.parse(bytes))
        return try decode(RequestID.read(from: fields) == nil ? fields : fields.removing("id"))
    }

    /// A message's fields, its `id` already taken out.
    static func decode(_ fields: MessageFields) throws(WireError) -> ClientMessage {
        let type = try fields.string("type")
        switch type {
        case "configure":
            return .configure(fields)
        case "pointer":
            return .pointer(try PointerMessage(fields))
        case "ping":
            try fields.onlyKnown(["type", "seq", "t"])
            return .ping(seq: try fields.integer("seq"), time: try fields.number("t"))
        case "play":
            try fields.onlyKnown(["type"])
            return .play
        case "scene":
            return .scene(try SceneSetup(fields))
        case "device", "attempt-rotation", "update", "update-supported-orientations", "request-geometry-update":
            return .orientation(try OrientationRequest.parse(type, fields))
        case "present", "dismiss", "push", "pop":
            return .sceneCommand(try SceneRequest.command(SceneAction(rawValue: type)!, fields))
        case "sheet":
            return .sheet(try SheetRequest(fields))
        case "join":
            try fields.onlyKnown(["type", "session"])
            return .join(session: try fields.string("session"))
        default:
            throw WireError(
                .unknownType,
                "unknown message type \(WireError.quoted(type)) (configure, pointer, play, ping, join, scene, present, dismiss, push, pop, device, update, attempt-rotation, update-supported-orientations, request-geometry-update, sheet)"
            )
        }
    }
}

/// The `type` of a client message that parsed (docs/PROTOCOL.md), for the server's metrics.
public enum ClientMessageType: String, Sendable, CaseIterable {
    case configure, pointer, ping, join, play, scene
    case present, dismiss, push, pop
    case device, update
    case attemptRotation = "attempt-rotation"
    case updateSupportedOrientations = "update-supported-orientations"
    case requestGeometryUpdate = "request-geometry-update"
    case sheet
}

extension ClientMessage {
    var type: ClientMessageType {
        switch self {
        case .configure: return .configure
        case .pointer: return .pointer
        case .ping: return .ping
        case .join: return .join
        case .play: return .play
        case .scene: return .scene
        case .sceneCommand(let command):
            switch command.request.action {
            case .present: return .present
            case .dismiss: return .dismiss
            case .push: return .push
            case .pop: return .pop
            }
        case .orientation(let request):
            switch request {
            case .device: return .device
            case .attempt: return .attemptRotation
            case .updateSupported: return .updateSupportedOrientations
            case .requestGeometry: return .requestGeometryUpdate
            case .update: return .update
            }
        case .sheet: return .sheet
        }
    }
}

/// `{"type":"pointer","phase":…,"x":…,"y":…,"t":MS,"seq":N,"pointerId":ID?}`
struct PointerMessage: Equatable {
    let phase: PointerEvent.Phase
    let x: Double
    let y: Double
    /// The client's clock, milliseconds.
    let time: Double
    let seq: Int
    let pointerID: Int

    /// `x` and `y`, pt: the engine's own limit (`PointerEvent.coordinateLimit`, ±1,000,000),
    /// refused here first so the error names the field.
    static let coordinateRange = -PointerEvent.coordinateLimit...PointerEvent.coordinateLimit
    /// `t`, ms: ±1e13 (the year 2286 as epoch milliseconds), so `performance.now()` and
    /// `Date.now()` clocks both fit, and a timestamp keeps better than 2 µs of resolution once
    /// in seconds (at 1e300 ms one ulp is 1e281 s, and a session anchored there never ends).
    static let timeRange = -1e13...1e13

    /// A connection's pointer seqs must strictly increase; `last` is the last accepted one.
    func checkSequence(after last: Int?) throws(WireError) {
        if let last, seq <= last {
            throw WireError(.sequence, "seq must increase: \(seq) after \(last)", seq: seq)
        }
    }

    /// Whether the ranges above hold (`PointerFastPath` asks this instead of throwing).
    static func inRange(x: Double, y: Double, time: Double) -> Bool {
        coordinateRange.contains(x) && coordinateRange.contains(y) && timeRange.contains(time)
    }

    /// Every check added here must hold in `PointerFastPath.parse` too (or make it decline):
    /// it returns messages without calling this.
    init(_ fields: MessageFields) throws(WireError) {
        try fields.onlyKnown(["type", "phase", "x", "y", "t", "seq", "pointerId", "pointerType"])
        let phaseName = try fields.string("phase")
        guard let phase = PointerEvent.Phase(rawValue: phaseName) else {
            throw WireError(
                .invalidField, "'phase' must be down, move, up or cancel; got \(WireError.quoted(phaseName))",
                field: "phase")
        }
        self.phase = phase
        x = try fields.number("x")
        y = try fields.number("y")
        time = try fields.number("t")
        seq = try fields.integer("seq")
        pointerID = fields.has("pointerId") ? try fields.integer("pointerId") : 0
        // Ranges last, so the refusal can carry the seq like every refused pointer message.
        try Self.check("x", x, in: Self.coordinateRange, unit: "pt", seq: seq)
        try Self.check("y", y, in: Self.coordinateRange, unit: "pt", seq: seq)
        try Self.check("t", time, in: Self.timeRange, unit: "ms", seq: seq)
    }

    private static func check(
        _ field: String, _ value: Double, in range: ClosedRange<Double>, unit: String, seq: Int
    ) throws(WireError) {
        guard !range.contains(value) else { return }
        throw WireError(
            .invalidField,
            "'\(field)' must be a number in [\(range.lowerBound), \(range.upperBound)] \(unit); got \(value)",
            seq: seq, field: field)
    }
}
