/// A client's side of delta frames (docs/PROTOCOL.md, "Delta frames"): turns each frame it
/// receives, delta or full, into the whole frame. The headless tools use it, and the tests use
/// it to check that what a client assembles is exactly the full frame.
public struct FrameAssembler: Sendable {
    /// The last whole frame.
    public private(set) var frame: JSONValue?
    /// Deltas that could not be applied (their base was not the frame held).
    public private(set) var dropped = 0

    public init() {}

    /// Forgets the frame held (a new session: after `welcome` or `joined`).
    public mutating func reset() { frame = nil }

    /// The whole frame `message` describes, or nil when it is a delta whose base is not the
    /// frame held (then nothing changes but `dropped`).
    public mutating func apply(_ message: JSONValue) -> JSONValue? {
        guard case .object(var fields) = message else { return nil }
        guard let base = fields["base"] else {
            frame = message
            return message
        }
        guard case .object(let held)? = frame, let baseNumber = base.number, held["n"]?.number == baseNumber,
            let whole = Self.assemble(&fields, over: held)
        else {
            dropped += 1
            return nil
        }
        frame = whole
        return whole
    }

    private static func assemble(_ fields: inout [String: JSONValue], over held: [String: JSONValue]) -> JSONValue? {
        fields["base"] = nil
        guard case .array(let entries)? = fields["layers"] else { return nil }
        var baseLayers: [String: [String: JSONValue]] = [:]
        if case .array(let layers)? = held["layers"] {
            for case .object(let layer) in layers {
                if let id = layer["id"]?.string { baseLayers[id] = layer }
            }
        }
        var layers: [JSONValue] = []
        for entry in entries {
            switch entry {
            case .string(let id):
                guard let layer = baseLayers[id] else { return nil }
                layers.append(.object(layer))
            case .object(let changes):
                guard let id = changes["id"]?.string else { return nil }
                var layer = baseLayers[id] ?? [:]
                for (key, value) in changes { layer[key] = value == .null ? nil : value }
                layers.append(.object(layer))
            default:
                return nil
            }
        }
        fields["layers"] = .array(layers)
        switch fields["animator"] {
        case nil:
            fields["animator"] = held["animator"]
        case .null?:
            fields["animator"] = nil
        case .object(let changes)?:
            guard case .object(var animator)? = held["animator"] ?? .object([:]) else { return nil }
            for (key, value) in changes { animator[key] = value }
            fields["animator"] = .object(animator)
        default:
            return nil
        }
        switch fields["scene"] {
        case nil:
            fields["scene"] = held["scene"]
        case .null?:
            fields["scene"] = nil
        case .object(let changes)?:
            guard case .object(let baseScene)? = held["scene"] ?? .object([:]) else { return nil }
            var scene = baseScene
            for key in ["root", "transition"] where changes[key] != nil { scene[key] = changes[key] }
            if let entries = changes["layers"] {
                guard case .array(let entries) = entries else { return nil }
                var baseLayers: [JSONValue] = []
                if case .array(let items)? = baseScene["layers"] { baseLayers = items }
                func baseLayer(_ value: JSONValue?) -> JSONValue? {
                    guard case .number(let index)? = value, index >= 0, index < Double(baseLayers.count),
                        index == index.rounded()
                    else { return nil }
                    return baseLayers[Int(index)]
                }
                var layers: [JSONValue] = []
                for entry in entries {
                    switch entry {
                    case .number:
                        guard let layer = baseLayer(entry) else { return nil }
                        layers.append(layer)
                    case .object(let patch) where patch["base"] != nil:
                        guard case .object(var layer)? = baseLayer(patch["base"]) else { return nil }
                        for (key, value) in patch where key != "base" { layer[key] = value == .null ? nil : value }
                        layers.append(.object(layer))
                    case .object:
                        layers.append(entry)
                    default:
                        return nil
                    }
                }
                scene["layers"] = .array(layers)
            }
            fields["scene"] = .object(scene)
        default:
            return nil
        }
        return .object(fields)
    }
}
