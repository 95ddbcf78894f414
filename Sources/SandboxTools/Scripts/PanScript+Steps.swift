import Foundation
import SandboxSession

/// Parsing one step: an object naming one action.
extension PanScript {
    static let sceneActions = [
        "scene", "present", "dismiss", "push", "pop", "device", "update", "attempt-rotation",
        "update-supported-orientations", "request-geometry-update", "sheet",
    ]
    static let actions = ["down", "move", "moveBy", "samples", "hold", "up", "cancel", "play", "wait"] + sceneActions

    static func parseStep(_ value: JSONValue) throws(ScriptError) -> Step {
        guard case .object(let step) = value else {
            throw ScriptError("a step is an object such as {\"down\": [100, 400]}")
        }
        let present = actions.filter { step[$0] != nil }
        if present.isEmpty, let unknown = step.keys.sorted().first {
            // No action at all: the first name is most likely a misspelt one.
            throw ScriptError(unknownField: unknown, known: actions)
        }
        guard present.count == 1, let action = present.first else {
            throw ScriptError("a step has exactly one of \(actions.joined(separator: ", "))")
        }
        let options: [String: Set<String>] = [
            "down": ["pointer"], "move": ["ms", "hz", "pointer"], "moveBy": ["ms", "hz", "pointer"],
            "samples": ["pointer"], "hold": [], "up": ["pointer"], "cancel": ["pointer"], "play": [],
            "wait": ["timeoutMs"], "scene": [], "present": [], "dismiss": [], "push": [], "pop": [], "device": [],
            "update": [], "attempt-rotation": [], "update-supported-orientations": [], "request-geometry-update": [],
            "sheet": [],
        ]
        if let unknown = step.keys.sorted().first(where: { $0 != action && !options[action]!.contains($0) }) {
            let valid = options[action]!.sorted()
            let guess = ClosestName.to(unknown, among: valid).map { "; did you mean '\($0)'?" } ?? ""
            let takes = valid.isEmpty ? "" : " (it takes \(valid.joined(separator: ", ")))"
            throw ScriptError("'\(action)' takes no '\(unknown.prefix(64))'\(guess)\(takes)")
        }
        var pointer = 0
        if let id = try optionalNumber(step, "pointer") {
            guard id == id.rounded(), id >= 0, id < 1e9 else {
                throw ScriptError("'pointer' must be a whole number ≥ 0")
            }
            pointer = Int(id)
        }
        switch action {
        case "down":
            let (x, y) = try point(step["down"], "down")
            return .down(x: x, y: y, pointer: pointer)
        case "move", "moveBy":
            let (x, y) = try point(step[action], action)
            let ms = try optionalNumber(step, "ms") ?? 0
            let hz = try optionalNumber(step, "hz") ?? defaultRate
            guard ms >= 0, ms <= 3_600_000 else { throw ScriptError("'ms' must be in 0…3600000") }
            guard hz > 0, hz <= 10_000 else { throw ScriptError("'hz' must be in (0, 10000]") }
            return .move(x: x, y: y, relative: action == "moveBy", ms: ms, hz: hz, pointer: pointer)
        case "samples":
            guard case .array(let rows)? = step["samples"], !rows.isEmpty else {
                throw ScriptError("'samples' must be a non-empty array of [ms, x, y]")
            }
            var samples: [[Double]] = []
            for (index, row) in rows.enumerated() {
                guard case .array(let items) = row, items.count == 3 else {
                    throw ScriptError("samples[\(index)] must be [ms, x, y]")
                }
                let values = items.compactMap(\.number)
                guard values.count == 3 else { throw ScriptError("samples[\(index)] must be [ms, x, y], numbers") }
                guard values[0] >= 0 else { throw ScriptError("samples[\(index)]: ms must be ≥ 0") }
                if let previous = samples.last, values[0] < previous[0] {
                    throw ScriptError("samples[\(index)]: times must not decrease (\(values[0]) after \(previous[0]))")
                }
                samples.append(values)
            }
            return .samples(samples, pointer: pointer)
        case "hold":
            guard let ms = step["hold"]?.number, ms >= 0, ms <= 3_600_000 else {
                throw ScriptError("'hold' must be a number of milliseconds in 0…3600000")
            }
            return .hold(ms: ms)
        case "up", "cancel":
            guard step[action] == .bool(true) else { throw ScriptError("write {\"\(action)\": true}") }
            return action == "up" ? .up(pointer: pointer) : .cancel(pointer: pointer)
        case "play":
            guard step["play"] == .bool(true) else { throw ScriptError("write {\"play\": true}") }
            return .play
        case "device":
            // {"device": "landscapeLeft"}: the physical device turns.
            guard let orientation = step["device"]?.string else {
                throw ScriptError("'device' must be an orientation name")
            }
            let json = JSONValue.object(["type": .string("device"), "orientation": .string(orientation)]).jsonText
            return .sceneMessage(type: action, json: json)
        case "attempt-rotation", "update-supported-orientations":
            guard step[action] == .bool(true) else { throw ScriptError("write {\"\(action)\": true}") }
            return .sceneMessage(type: action, json: JSONValue.object(["type": .string(action)]).jsonText)
        case _ where sceneActions.contains(action):
            guard case .object(var fields)? = step[action], fields["type"] == nil else {
                throw ScriptError("'\(action)' must be an object of the \(action) message's fields (without 'type')")
            }
            fields["type"] = .string(action)
            return .sceneMessage(type: action, json: JSONValue.object(fields).jsonText)
        default:  // wait
            let names = WaitCondition.allCases.map(\.rawValue).joined(separator: ", ")
            guard let name = step["wait"]?.string, let condition = WaitCondition(rawValue: name) else {
                throw ScriptError("'wait' must be one of \(names)")
            }
            let timeout = try optionalNumber(step, "timeoutMs") ?? defaultTimeoutMs
            guard timeout > 0, timeout <= 3_600_000 else { throw ScriptError("'timeoutMs' must be in (0, 3600000]") }
            return .wait(condition, timeoutMs: timeout)
        }
    }
}
