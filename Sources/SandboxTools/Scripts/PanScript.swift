import Foundation
import SandboxSession

/// A pan script (docs/SCRIPTS.md): the transition's settings, timed steps, expectations.
public struct PanScript: Sendable {
    public var name: String
    public var description: String?
    /// A `configure` message's fields, sent as they are (the server validates them).
    public var configJSON: String?
    public var steps: [Step]
    public var expect: Expectations

    public enum Step: Equatable, Sendable {
        case down(x: Double, y: Double, pointer: Int)
        /// A straight line to (x, y), or by (x, y) when `relative`, over `ms` at `hz`.
        case move(x: Double, y: Double, relative: Bool, ms: Double, hz: Double, pointer: Int)
        /// Recorded moves: [ms from the step's start, x, y].
        case samples([[Double]], pointer: Int)
        case hold(ms: Double)
        case up(pointer: Int)
        case cancel(pointer: Int)
        case play
        case wait(WaitCondition, timeoutMs: Double)
        /// A scene message (`scene`, `present`, `dismiss`, `push`, `pop`): its fields, sent as
        /// they are with their `type` (the server validates them).
        case sceneMessage(type: String, json: String)
    }

    public enum WaitCondition: String, CaseIterable, Sendable {
        case began, released, played, finished, cancelled
        /// A property animator with pausesOnCompletion stopped at its end (issue 14).
        case paused
        /// Finished, cancelled or paused — or nothing running at all (a pan that never began).
        case rest
    }

    public enum Outcome: String, Sendable {
        case finished, cancelled, none
    }

    public struct Expectations: Equatable, Sendable {
        public var outcome: Outcome?
        public var progress: Double?
        public var frames: ClosedRange<Int>?
        public var latencyP99Ms: Double?
        /// Every lifecycle callback received, in order, as `LifecycleEvent.description` writes
        /// them: `list.viewDidLoad`, `sheet.viewWillAppear(true)`, `sheet.completeTransition(false)`.
        public var lifecycle: [String]?
        /// Every error code received, in order (an empty list: none).
        public var errors: [String]?
        /// The final scene: the top-most controller, the presented ones in order, the stacks.
        public var scene: SceneExpectation?
        /// The last `released` event: its decision, reason and projected progress (issue 14).
        public var release: ReleaseExpectation?
    }

    public struct ReleaseExpectation: Equatable, Sendable {
        /// `finish` or `cancel`.
        public var decision: String?
        /// `threshold`, `fling` or `projection`.
        public var reason: String?
        /// The projection's rest point lies within [min, max].
        public var projected: ClosedRange<Double>?
        /// The progress at release lies within [min, max].
        public var progress: ClosedRange<Double>?
    }

    public struct SceneExpectation: Equatable, Sendable {
        public var topMost: String?
        public var presented: [String]?
        public var stacks: [String: [String]]?
        /// The interface orientation and the window's size (issue 12).
        public var interface: String?
        public var bounds: [Double]?
    }

    /// Steps at `hz` when a move does not say.
    public static let defaultRate = 60.0
    /// How long a `wait` waits when it does not say.
    public static let defaultTimeoutMs = 10_000.0
}

/// A script that cannot be run, with where and why.
public struct ScriptError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension PanScript {
    public static func load(path: String) throws(ScriptError) -> PanScript {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScriptError("\(path): cannot read: \(error.localizedDescription)")
        }
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
            throw ScriptError("not JSON (or a number beyond a double)")
        }
        guard case .object(let object) = root else { throw ScriptError("a script is one JSON object") }
        let known: Set = ["script", "name", "description", "config", "steps", "expect"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw ScriptError("unknown field '\(unknown)' (script, name, description, config, steps, expect)")
        }
        if let version = object["script"], version != .number(1) {
            throw ScriptError("'script' must be 1 (the format's version)")
        }
        var script = PanScript(
            name: try optionalString(object, "name") ?? defaultName,
            description: try optionalString(object, "description"),
            configJSON: nil, steps: [], expect: Expectations())
        if let config = object["config"] {
            guard case .object(var message) = config else { throw ScriptError("'config' must be an object of configure fields") }
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

    // MARK: - Steps

    private static let sceneActions = ["scene", "present", "dismiss", "push", "pop", "device", "update", "attempt-rotation"]
    private static let actions = ["down", "move", "moveBy", "samples", "hold", "up", "cancel", "play", "wait"] + sceneActions

    private static func parseStep(_ value: JSONValue) throws(ScriptError) -> Step {
        guard case .object(let step) = value else { throw ScriptError("a step is an object such as {\"down\": [100, 400]}") }
        let present = actions.filter { step[$0] != nil }
        guard present.count == 1, let action = present.first else {
            throw ScriptError("a step has exactly one of \(actions.joined(separator: ", "))")
        }
        let options: [String: Set<String>] = [
            "down": ["pointer"], "move": ["ms", "hz", "pointer"], "moveBy": ["ms", "hz", "pointer"],
            "samples": ["pointer"], "hold": [], "up": ["pointer"], "cancel": ["pointer"], "play": [],
            "wait": ["timeoutMs"], "scene": [], "present": [], "dismiss": [], "push": [], "pop": [], "device": [],
            "update": [], "attempt-rotation": [],
        ]
        if let unknown = step.keys.sorted().first(where: { $0 != action && !options[action]!.contains($0) }) {
            throw ScriptError("'\(action)' takes no '\(unknown)'")
        }
        var pointer = 0
        if let id = try optionalNumber(step, "pointer") {
            guard id == id.rounded(), id >= 0, id < 1e9 else { throw ScriptError("'pointer' must be a whole number ≥ 0") }
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
                guard case .array(let items) = row, items.count == 3 else { throw ScriptError("samples[\(index)] must be [ms, x, y]") }
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
            guard let orientation = step["device"]?.string else { throw ScriptError("'device' must be an orientation name") }
            let json = JSONValue.object(["type": .string("device"), "orientation": .string(orientation)]).jsonText
            return .sceneMessage(type: action, json: json)
        case "attempt-rotation":
            guard step[action] == .bool(true) else { throw ScriptError("write {\"attempt-rotation\": true}") }
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

    private static func parseExpectations(_ value: JSONValue) throws(ScriptError) -> Expectations {
        guard case .object(let object) = value else { throw ScriptError("must be an object") }
        let known: Set = ["outcome", "progress", "frames", "latencyP99Ms", "lifecycle", "errors", "scene", "release"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw ScriptError("unknown field '\(unknown)' (outcome, progress, frames, latencyP99Ms, lifecycle, errors, scene, release)")
        }
        var expect = Expectations()
        if let outcome = object["outcome"], outcome != .null {
            guard let name = outcome.string, let parsed = Outcome(rawValue: name) else {
                throw ScriptError("'outcome' must be finished, cancelled or none")
            }
            expect.outcome = parsed
        }
        if object["progress"] != .null { expect.progress = try optionalNumber(object, "progress") }
        if let progress = expect.progress, !(0...1).contains(progress) { throw ScriptError("'progress' must be in 0…1") }
        if let frames = object["frames"] {
            guard case .array(let bounds) = frames, bounds.count == 2, let low = bounds[0].number, let high = bounds[1].number,
                  low == low.rounded(), high == high.rounded(), low >= 0, low <= high, high < 1e9
            else { throw ScriptError("'frames' must be [min, max], whole numbers") }
            expect.frames = Int(low)...Int(high)
        }
        expect.latencyP99Ms = try optionalNumber(object, "latencyP99Ms")
        if let budget = expect.latencyP99Ms, budget <= 0 { throw ScriptError("'latencyP99Ms' must be > 0") }
        expect.lifecycle = try optionalStrings(object, "lifecycle")
        expect.errors = try optionalStrings(object, "errors")
        if let scene = object["scene"] {
            guard case .object(let fields) = scene else { throw ScriptError("'scene' must be an object") }
            let known = ["topMost", "presented", "stacks", "interface", "bounds"]
            if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
                throw ScriptError("scene: unknown field '\(unknown)' (\(known.joined(separator: ", ")))")
            }
            var expectation = SceneExpectation()
            expectation.topMost = try optionalString(fields, "topMost")
            expectation.presented = try optionalStrings(fields, "presented")
            expectation.interface = try optionalString(fields, "interface")
            if let bounds = fields["bounds"] {
                guard case .array(let items) = bounds, items.count == 2, let w = items[0].number, let h = items[1].number else {
                    throw ScriptError("scene.bounds must be [width, height]")
                }
                expectation.bounds = [w, h]
            }
            if let stacks = fields["stacks"] {
                guard case .object(let byNavigation) = stacks else { throw ScriptError("scene.stacks must map navigation ids to id lists") }
                var out: [String: [String]] = [:]
                for (navigation, _) in byNavigation { out[navigation] = try optionalStrings(byNavigation, navigation) }
                expectation.stacks = out
            }
            expect.scene = expectation
        }
        if let release = object["release"] { expect.release = try parseRelease(release) }
        return expect
    }

    private static func parseRelease(_ value: JSONValue) throws(ScriptError) -> ReleaseExpectation {
        guard case .object(let fields) = value else { throw ScriptError("'release' must be an object") }
        let known = ["decision", "reason", "projected", "progress"]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw ScriptError("release: unknown field '\(unknown)' (\(known.joined(separator: ", ")))")
        }
        func range(_ key: String) throws(ScriptError) -> ClosedRange<Double>? {
            guard let value = fields[key] else { return nil }
            guard case .array(let bounds) = value, bounds.count == 2, let low = bounds[0].number, let high = bounds[1].number,
                  low <= high
            else { throw ScriptError("release.\(key) must be [min, max]") }
            return low...high
        }
        var release = ReleaseExpectation()
        release.decision = try optionalString(fields, "decision")
        if let decision = release.decision, !["finish", "cancel"].contains(decision) {
            throw ScriptError("release.decision must be finish or cancel")
        }
        release.reason = try optionalString(fields, "reason")
        if let reason = release.reason, !["threshold", "fling", "projection"].contains(reason) {
            throw ScriptError("release.reason must be threshold, fling or projection")
        }
        release.projected = try range("projected")
        release.progress = try range("progress")
        return release
    }

    private static func optionalStrings(_ object: [String: JSONValue], _ key: String) throws(ScriptError) -> [String]? {
        guard let value = object[key] else { return nil }
        guard case .array(let items) = value else { throw ScriptError("'\(key)' must be an array of strings") }
        let strings = items.compactMap(\.string)
        guard strings.count == items.count else { throw ScriptError("'\(key)' must be an array of strings") }
        return strings
    }

    // MARK: - Values

    private static func optionalNumber(_ object: [String: JSONValue], _ key: String) throws(ScriptError) -> Double? {
        guard let value = object[key] else { return nil }
        guard let number = value.number else { throw ScriptError("'\(key)' must be a number") }
        return number
    }

    private static func optionalString(_ object: [String: JSONValue], _ key: String) throws(ScriptError) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.string else { throw ScriptError("'\(key)' must be a string") }
        return text
    }

    private static func point(_ value: JSONValue?, _ key: String) throws(ScriptError) -> (Double, Double) {
        guard case .array(let pair)? = value, pair.count == 2, let x = pair[0].number, let y = pair[1].number else {
            throw ScriptError("'\(key)' must be [x, y] in points")
        }
        return (x, y)
    }
}
