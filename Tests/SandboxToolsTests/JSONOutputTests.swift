import Foundation
import SandboxSession
import Testing

@testable import SandboxTools

/// Everything the tools write as JSON goes through `JSONWriter`: strings from outside (URLs,
/// script names, error text, configuration values) come out escaped and parse back unchanged.
@Suite("JSON the tools write")
struct JSONOutputTests {
    /// Valid for WebSocketURL (a path may hold anything) and hostile to string interpolation.
    static let awkwardURL = "ws://127.0.0.1:9/a\"b\\c\u{01}\n\t/é"

    static func decode(_ text: String) throws -> JSONValue {
        try JSONValue.decode(Data(text.utf8))
    }

    static func bench(sessions: Int, slowest: Double = 59.5) -> BenchResult {
        BenchResult(
            sessions: sessions, connected: sessions, fps: 60, seconds: 2, framesPerSecond: 1200, meanSessionFPS: 60,
            slowestSessionFPS: slowest, onTimeFraction: 1, jitter: nil, serverCores: nil, serverRSSKiB: 2048,
            serverRSSPerSessionKiB: nil, clientCores: 0.25, errors: ["closed with 1006 \"x\""])
    }

    @Test("a latency report escapes its URLs")
    func latencyReport() throws {
        let report = LatencyReport(
            sandbox: LatencyResult(), floor: LatencyResult(), options: LatencyOptions(),
            url: Self.awkwardURL, compare: Self.awkwardURL + "\"")
        let value = try Self.decode(report.json)
        #expect(value["url"] == .string(Self.awkwardURL))
        #expect(value["floor"]?["url"] == .string(Self.awkwardURL + "\""))
        #expect(value["inputToFrameMs"] == .null)
        #expect(value["rate"] == .number(200))
        #expect(value["concurrency"] == .number(1))
    }

    @Test("a bench report escapes its URL; a non-finite figure is null")
    func benchReport() throws {
        let single = BenchTargetReport(
            target: "sandbox", url: Self.awkwardURL, outcome: .single(Self.bench(sessions: 20, slowest: .infinity)))
        let value = try Self.decode(single.json)
        #expect(value["url"] == .string(Self.awkwardURL))
        #expect(value["result"]?["slowestSessionFPS"] == .null)
        #expect(value["result"]?["serverRSSKiB"] == .number(2048))
        #expect(value["result"]?["errors"] == .number(1))
        #expect(value["result"]?["holds"] == .bool(false))

        let ramp = BenchTargetReport(
            target: "streamer\"", url: Self.awkwardURL,
            outcome: .ramp(best: Self.bench(sessions: 40), steps: [Self.bench(sessions: 40), Self.bench(sessions: 80)]))
        let both = try Self.decode([single, ramp].jsonOnePerLine)
        guard case .array(let items) = both, items.count == 2 else {
            Issue.record("not an array of two: \(both)")
            return
        }
        #expect(items[1]["target"] == .string("streamer\""))
        #expect(items[1]["best"] == .number(40))
        guard case .array(let steps)? = items[1]["steps"] else {
            Issue.record("no steps")
            return
        }
        #expect(steps.map { $0["sessions"] } == [.number(40), .number(80)])
    }

    @Test("a replay report escapes the script's name, errors and failures")
    func replayReport() throws {
        let script = try PanScript.parse(
            Data(
                #"""
                {"name": "quote \" back \\ tab \t nul \u0000 end",
                 "config": {"transition": "fa\"de"}, "steps": [{"down": [100, 400]}, {"up": true}]}
                """#.utf8))
        let report = try ScriptRunner.runLocal(script)
        #expect(!report.errors.isEmpty)  // the server refused the transition, echoing it
        let value = try Self.decode(report.json)
        #expect(value["name"] == .string("quote \" back \\ tab \t nul \u{0} end"))
        #expect(value["errors"] == .array(report.errors.map(JSONValue.string)))
        #expect(value["failures"] == .array(report.failures.map(JSONValue.string)))
        #expect(value["passed"] == .bool(report.passed))
    }

    @Test("a script's configuration is passed on as its own JSON, strings escaped, keys sorted")
    func configuration() throws {
        let script = try PanScript.parse(
            Data(
                #"""
                {"config": {"transition": "fa\"de\\", "spring": {"damping": 0.5}, "clamp": [0, 1], "flingVelocity": null},
                 "steps": [{"up": true}]}
                """#.utf8))
        let config = try #require(script.configJSON)
        #expect(
            config
                == #"{"clamp":[0,1],"flingVelocity":null,"spring":{"damping":0.5},"transition":"fa\"de\\","type":"configure"}"#
        )
        #expect(try Self.decode(config)["transition"] == .string("fa\"de\\"))
    }

    @Test("the messages the tools send")
    func clientMessages() throws {
        #expect(ClientMessages.play == #"{"type":"play"}"#)
        #expect(ClientMessages.configure(fps: 60, duration: 60) == #"{"type":"configure","fps":60,"duration":60}"#)
        #expect(ClientMessages.ping(seq: 3, t: 1000.5) == #"{"type":"ping","seq":3,"t":1000.5}"#)
        #expect(
            ClientMessages.pointer("move", x: 212.5, y: 400, t: 15234.6, seq: 42, pointerId: 1)
                == #"{"type":"pointer","phase":"move","x":212.5,"y":400,"t":15234.6,"seq":42,"pointerId":1}"#)
        #expect(
            ClientMessages.pointer("down", x: 1, y: 2, t: 3, seq: 4)
                == #"{"type":"pointer","phase":"down","x":1,"y":2,"t":3,"seq":4}"#)
    }

    @Test("a latency summary")
    func latencySummary() throws {
        var histogram = LatencyResult.histogram()
        for microseconds: UInt64 in [100, 200, 300] { _ = histogram.record(microseconds) }
        let summary = try #require(LatencySummary(histogram))
        let value = try Self.decode(summary.json)
        #expect(value["count"] == .number(3))
        #expect(value["p99.9"]?.number.map { abs($0 - 0.3) < 0.001 } == true)
    }
}
