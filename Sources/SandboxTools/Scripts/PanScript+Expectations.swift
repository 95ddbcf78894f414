import Foundation
import SandboxSession

/// Parsing `expect`: the outcome, the progress, the frames, the release and the scene.
extension PanScript {
    static func parseExpectations(_ value: JSONValue) throws(ScriptError) -> Expectations {
        guard case .object(let object) = value else { throw ScriptError("must be an object") }
        try refuseUnknownFields(
            object, known: ["outcome", "progress", "frames", "latencyP99Ms", "lifecycle", "errors", "scene", "release"])
        var expect = Expectations()
        if let outcome = object["outcome"], outcome != .null {
            guard let name = outcome.string, let parsed = Outcome(rawValue: name) else {
                throw ScriptError("'outcome' must be finished, cancelled or none")
            }
            expect.outcome = parsed
        }
        if object["progress"] != .null { expect.progress = try optionalNumber(object, "progress") }
        if let progress = expect.progress, !(0...1).contains(progress) {
            throw ScriptError("'progress' must be in 0…1")
        }
        if let frames = object["frames"] {
            guard case .array(let bounds) = frames, bounds.count == 2, let low = bounds[0].number,
                let high = bounds[1].number,
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
            try refuseUnknownFields(
                fields, known: ["topMost", "presented", "stacks", "interface", "bounds", "detent"], prefix: "scene: ")
            var expectation = SceneExpectation()
            expectation.topMost = try optionalString(fields, "topMost")
            expectation.presented = try optionalStrings(fields, "presented")
            expectation.interface = try optionalString(fields, "interface")
            if let bounds = fields["bounds"] {
                guard case .array(let items) = bounds, items.count == 2, let w = items[0].number,
                    let h = items[1].number
                else {
                    throw ScriptError("scene.bounds must be [width, height]")
                }
                expectation.bounds = [w, h]
            }
            if let stacks = fields["stacks"] {
                guard case .object(let byNavigation) = stacks else {
                    throw ScriptError("scene.stacks must map navigation ids to id lists")
                }
                var out: [String: [String]] = [:]
                for (navigation, _) in byNavigation { out[navigation] = try optionalStrings(byNavigation, navigation) }
                expectation.stacks = out
            }
            if let detents = fields["detent"] {
                guard case .object(let bySheet) = detents else {
                    throw ScriptError("scene.detent must map sheet ids to detent ids")
                }
                var out: [String: String] = [:]
                for (sheet, _) in bySheet {
                    guard let detent = try optionalString(bySheet, sheet) else { continue }
                    out[sheet] = detent
                }
                expectation.detent = out
            }
            expect.scene = expectation
        }
        if let release = object["release"] { expect.release = try parseRelease(release) }
        return expect
    }

    static func parseRelease(_ value: JSONValue) throws(ScriptError) -> ReleaseExpectation {
        guard case .object(let fields) = value else { throw ScriptError("'release' must be an object") }
        try refuseUnknownFields(fields, known: ["decision", "reason", "projected", "progress"], prefix: "release: ")
        func range(_ key: String) throws(ScriptError) -> ClosedRange<Double>? {
            guard let value = fields[key] else { return nil }
            guard case .array(let bounds) = value, bounds.count == 2, let low = bounds[0].number,
                let high = bounds[1].number,
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
}
