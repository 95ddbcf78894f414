import Foundation
import Testing

@testable import SandboxTools

@Suite("Pan scripts")
struct PanScriptTests {
    static func parse(_ text: String) throws(ScriptError) -> PanScript {
        try PanScript.parse(Data(text.utf8))
    }

    @Test("every step form parses")
    func steps() throws {
        let script = try Self.parse(
            """
            {"script": 1, "name": "all", "config": {"transition": "fade", "duration": 0.5},
             "steps": [{"down": [100, 400]}, {"move": [200, 400], "ms": 100, "hz": 120},
                       {"moveBy": [-10, 0], "ms": 50}, {"samples": [[0, 190, 400], [16.5, 180, 401]]},
                       {"hold": 40}, {"up": true}, {"wait": "rest", "timeoutMs": 5000}, {"play": true},
                       {"down": [1, 2], "pointer": 3}, {"cancel": true, "pointer": 3}],
             "expect": {"outcome": "finished", "progress": 1, "frames": [5, 50], "latencyP99Ms": 20}}
            """)
        #expect(script.name == "all")
        #expect(script.configJSON == #"{"duration":0.5,"transition":"fade","type":"configure"}"#)
        #expect(
            script.steps == [
                .down(x: 100, y: 400, pointer: 0), .move(x: 200, y: 400, relative: false, ms: 100, hz: 120, pointer: 0),
                .move(x: -10, y: 0, relative: true, ms: 50, hz: 60, pointer: 0),
                .samples([[0, 190, 400], [16.5, 180, 401]], pointer: 0), .hold(ms: 40), .up(pointer: 0),
                .wait(.rest, timeoutMs: 5000), .play, .down(x: 1, y: 2, pointer: 3), .cancel(pointer: 3),
            ])
        #expect(
            script.expect == PanScript.Expectations(outcome: .finished, progress: 1, frames: 5...50, latencyP99Ms: 20))
    }

    @Test(
        "a bad script is refused with where and why",
        arguments: [
            (#"{"steps": []}"#, "'steps' must be a non-empty array"),
            (#"{"steps": [{"down": [1]}]}"#, "steps[0]: 'down' must be [x, y] in points"),
            (#"{"steps": [{"down": [1, 2], "up": true}]}"#, "steps[0]: a step has exactly one of"),
            (#"{"steps": [{"hold": true}]}"#, "steps[0]: 'hold' must be a number"),
            (#"{"steps": [{"samples": [[5, 1, 1], [4, 1, 1]]}]}"#, "steps[0]: samples[1]: times must not decrease"),
            (#"{"steps": [{"wait": "soon"}]}"#, "steps[0]: 'wait' must be one of"),
            (#"{"steps": [{"up": true, "ms": 3}]}"#, "steps[0]: 'up' takes no 'ms'"),
            (#"{"steps": [{"up": true}], "expect": {"outcome": "won"}}"#, "expect: 'outcome' must be"),
            (#"{"steps": [{"up": true}], "extra": 1}"#, "unknown field 'extra'"),
            (#"{"script": 2, "steps": [{"up": true}]}"#, "'script' must be 1"),
            (#"[1]"#, "a script is one JSON object"),
        ])
    func refused(text: String, message: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            (error as? ScriptError)?.description.hasPrefix(message) == true
                || (error as? ScriptError)?.description.contains(message) == true
        }
    }

    static func message(_ text: String) -> String {
        do {
            _ = try Self.parse(text)
            return "parsed"
        } catch {
            return error.description
        }
    }

    /// A slip of the keyboard is named with the name it was most likely meant to be; a name
    /// far from every valid one is named alone, with the valid ones.
    @Test(
        "misspelt names are named with the closest",
        arguments: [
            (#"{"steps": [{"up": true}], "expectt": {}}"#, "unknown field 'expectt'; did you mean 'expect'?"),
            (#"{"stesp": [{"up": true}]}"#, "unknown field 'stesp'; did you mean 'steps'?"),
            (#"{"steps": [{"up": true}, {"dwn": [1, 2]}]}"#, "steps[1]: unknown field 'dwn'; did you mean 'down'?"),
            (#"{"steps": [{"move": [1, 2], "hx": 30}]}"#, "steps[0]: 'move' takes no 'hx'; did you mean 'hz'?"),
            (
                #"{"steps": [{"up": true}], "expect": {"outcom": "finished"}}"#,
                "expect: unknown field 'outcom'; did you mean 'outcome'?"
            ),
            (
                #"{"steps": [{"up": true}], "expect": {"release": {"decison": "finish"}}}"#,
                "expect: release: unknown field 'decison'; did you mean 'decision'?"
            ),
            (
                #"{"steps": [{"up": true}], "zebra": 1}"#,
                "unknown field 'zebra' (script, name, description, config, steps, expect)"
            ),
        ])
    func misspeltNamesAreNamedWithTheClosest(text: String, message: String) {
        #expect(Self.message(text).hasPrefix(message), "\(Self.message(text))")
    }

    @Test("the closest name: swaps, slips and names too far to guess")
    func closestName() {
        #expect(ClosestName.to("stpes", among: ["steps", "expect"]) == "steps")
        #expect(ClosestName.to("EXPECT", among: ["steps", "expect"]) == "expect")
        #expect(ClosestName.to("x", among: ["up", "down"]) == nil)
        #expect(ClosestName.to(String(repeating: "a", count: 10_000), among: ["steps"]) == nil)
        #expect(ClosestName.distance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
    }

    /// An editor's line and column (from 1; the column in characters): where to look.
    @Test(
        "bad JSON is placed by line and column",
        arguments: [
            ("{\"steps\": [{\"up\": true},]}", 1, 25),
            ("{\n  \"steps\": [\n    {\"up\": tru}\n  ]\n}", 3, 12),
            ("{\"name\": \"é—ü\", \"steps\": [}", 1, 27),
            ("", 1, 1),
        ])
    func badJSONIsPlacedByLineAndColumn(text: String, line: Int, column: Int) {
        #expect(Self.message(text).hasPrefix("line \(line), column \(column): not JSON"), "\(Self.message(text))")
    }

    static func place(_ offset: Int, _ data: Data) -> [Int] {
        let position = TextPosition(of: offset, in: data)
        return [position.line, position.column]
    }

    @Test("a position counts characters, not bytes")
    func textPosition() {
        let data = Data("ab\néé x".utf8)
        #expect(Self.place(0, data) == [1, 1])
        #expect(Self.place(3, data) == [2, 1])
        #expect(Self.place(8, data) == [2, 4])
        #expect(Self.place(1_000, data) == [2, 5])
    }

    @Test("file problems are said plainly")
    func fileProblemsAreSaidPlainly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func problem(_ path: String) -> String {
            do {
                _ = try PanScript.load(path: path)
                return "loaded"
            } catch {
                return error.description
            }
        }
        let listed = "give its files: \(folder.path)/*.json"
        #expect(problem(folder.path) == "\(folder.path): is a folder, not a script file (\(listed))")
        #expect(problem(folder.path + "/none.json") == "\(folder.path)/none.json: no such file")
        #expect(problem("/dev/null") == "/dev/null: not a regular file")
        let big = folder.appendingPathComponent("big.json").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, off_t(PanScript.maximumFileBytes + 1)) == 0)
        #expect(problem(big).hasPrefix("\(big): \(PanScript.maximumFileBytes + 1) bytes, more than a script may be"))
        let bad = folder.appendingPathComponent("bad.json").path
        #expect(FileManager.default.createFile(atPath: bad, contents: Data("{\n  oops\n}".utf8)))
        #expect(problem(bad).hasPrefix("\(bad): line 2, column 3: not JSON"))
    }

    @Test("the local replay of a drag past the threshold finishes, deterministically")
    func localReplay() throws {
        let script = try Self.parse(
            """
            {"config": {"transition": "fade"},
             "steps": [{"down": [100, 400]}, {"move": [250, 400], "ms": 200}, {"hold": 50}, {"up": true},
                       {"wait": "finished"}],
             "expect": {"outcome": "finished", "progress": 1}}
            """)
        let first = try ScriptRunner.runLocal(script)
        let second = try ScriptRunner.runLocal(script)
        #expect(first.outcome == .finished)
        #expect(first.finalProgress == 1)
        #expect(first.failures.isEmpty)
        #expect(first.traceLines == second.traceLines)
        #expect(first.samples.map(\.progress) == second.samples.map(\.progress))
        // 12 moves of 12.5 pt: progress follows |translation| / 200, clamped
        #expect(first.samples.count == 14)
        #expect(first.samples[12].progress == 0.75)
    }

    @Test("an unmet expectation is a failure with its reason")
    func failure() throws {
        let script = try Self.parse(
            """
            {"steps": [{"down": [100, 400]}, {"move": [130, 400], "ms": 100}, {"hold": 50}, {"up": true}],
             "expect": {"outcome": "finished", "frames": [1, 3]}}
            """)
        let report = try ScriptRunner.runLocal(script)
        #expect(report.outcome == .cancelled)
        #expect(report.failures.contains { $0.hasPrefix("outcome: expected finished, got cancelled") })
        #expect(report.failures.contains { $0.hasPrefix("frames: expected 1…3") })
    }
}
