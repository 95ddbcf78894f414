import Foundation
import SandboxSession

/// Reading a script: its file, its JSON, and the values in it.
extension PanScript {
    /// A script file's largest size: the longest example is 6 KB; a recorded gesture of an hour
    /// at 240 Hz is about 20 MB.
    public static let maximumFileBytes = 64 << 20

    public static func load(path: String) throws(ScriptError) -> PanScript {
        let data = try ScriptFile.read(path, limit: maximumFileBytes)
        let fallback = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        do {
            return try parse(data, defaultName: fallback)
        } catch {
            throw ScriptError("\(path): \(error.description)")
        }
    }

    public static func parse(_ data: Data, defaultName: String = "script") throws(ScriptError) -> PanScript {
        let root: JSONValue
        do {
            root = try JSONValue.decode(data)
        } catch {
            let at = TextPosition(of: error.offset, in: data)
            throw ScriptError(
                "line \(at.line), column \(at.column): not JSON (strict JSON: no comments, trailing commas or "
                    + "repeated names; numbers within a double's range; nesting at most 64 deep)")
        }
        guard case .object(let object) = root else { throw ScriptError("a script is one JSON object") }
        try refuseUnknownFields(object, known: ["script", "name", "description", "config", "steps", "expect"])
        if let version = object["script"], version != .number(1) {
            throw ScriptError("'script' must be 1 (the format's version)")
        }
        var script = PanScript(
            name: try optionalString(object, "name") ?? defaultName,
            description: try optionalString(object, "description"),
            configJSON: nil, steps: [], expect: Expectations())
        if let config = object["config"] {
            guard case .object(var message) = config else {
                throw ScriptError("'config' must be an object of configure fields")
            }
            // Checked here with every other field, not left to the server: a misspelt field in a
            // batch would otherwise be said only once that script's turn came, over the network.
            let fields = SessionSettings.configureFields.subtracting(["type"]).sorted()
            try refuseUnknownFields(message.filter { $0.key != "type" }, known: fields, prefix: "config: ")
            message["type"] = .string("configure")
            script.configJSON = JSONValue.object(message).jsonText
        }
        guard case .array(let steps)? = object["steps"], !steps.isEmpty else {
            throw ScriptError("'steps' must be a non-empty array")
        }
        for (index, step) in steps.enumerated() {
            do {
                script.steps.append(try parseStep(step))
            } catch {
                throw ScriptError("steps[\(index)]: \(error.description)")
            }
        }
        if let expect = object["expect"] {
            do {
                script.expect = try parseExpectations(expect)
            } catch {
                throw ScriptError("expect: \(error.description)")
            }
        }
        return script
    }

    static func optionalStrings(_ object: [String: JSONValue], _ key: String) throws(ScriptError) -> [String]? {
        guard let value = object[key] else { return nil }
        guard case .array(let items) = value else { throw ScriptError("'\(key)' must be an array of strings") }
        let strings = items.compactMap(\.string)
        guard strings.count == items.count else { throw ScriptError("'\(key)' must be an array of strings") }
        return strings
    }

    static func optionalNumber(_ object: [String: JSONValue], _ key: String) throws(ScriptError) -> Double? {
        guard let value = object[key] else { return nil }
        guard let number = value.number else { throw ScriptError("'\(key)' must be a number") }
        return number
    }

    static func optionalString(_ object: [String: JSONValue], _ key: String) throws(ScriptError) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.string else { throw ScriptError("'\(key)' must be a string") }
        return text
    }

    static func point(_ value: JSONValue?, _ key: String) throws(ScriptError) -> (Double, Double) {
        guard case .array(let pair)? = value, pair.count == 2, let x = pair[0].number, let y = pair[1].number else {
            throw ScriptError("'\(key)' must be [x, y] in points")
        }
        return (x, y)
    }
}
