import Foundation
import SandboxSession
import Testing

@testable import SandboxTools

/// `sandbox bench`'s output: the table at the end, and JSON figures at their measured precision.
@Suite("Bench output")
struct BenchOutputTests {
    static func result(cores: Double? = 0.41234567, onTime: Double = 0.9949999999999999) -> BenchResult {
        var result = BenchResult(
            sessions: 500, connected: 498, fps: 60, seconds: 5, framesPerSecond: 29_876.2 / 1.0000000000000002,
            meanSessionFPS: 59.99199999999999, slowestSessionFPS: 58.600000000000001, onTimeFraction: onTime,
            jitter: nil, serverCores: cores, serverRSSKiB: 40_000, serverRSSPerSessionKiB: 12.345678,
            clientCores: 0.09499999999999997, errors: [])
        result.meanFrameBytes = 311.66666666666669
        return result
    }

    /// The issue this holds: `0.09499999999999997` in bench's JSON, digits no clock measures.
    @Test("bench figures are rounded to their precision")
    func benchFiguresAreRoundedToTheirPrecision() throws {
        let text = Self.result().json
        for noise in ["99999", "00000", "66666"] { #expect(!text.contains(noise), "\(text)") }
        let value = try JSONValue.decode(Data(text.utf8))
        #expect(value["clientCores"] == .number(0.095))
        #expect(value["serverCores"] == .number(0.412))
        #expect(value["onTimeFraction"] == .number(0.995))
        #expect(value["framesPerSecond"] == .number(29_876.2))
        #expect(value["meanFrameBytes"] == .number(311.7))
        #expect(value["serverRSSPerSessionKiB"] == .number(12.35))
        #expect(value["serverRSSKiB"] == .number(40_000))
        #expect(Self.result(cores: nil).json.contains(#""serverCores":null"#))
    }

    @Test("a text table aligns its columns: names left, figures right")
    func textTable() {
        var table = TextTable(header: ["target", "sessions", "µs/frame"])
        table.add(["sandbox", "500", "13.70"])
        table.add(["streamer", "5", "—"])
        table.add(["x"])
        #expect(
            table.lines == [
                "target    sessions  µs/frame",
                "sandbox        500     13.70",
                "streamer         5         —",
                "x",
            ])
    }

    @Test("bench's table: a row per run, up/asked when some did not connect, the bar last")
    func benchTable() {
        var table = BenchTable()
        table.add("sandbox", Self.result())
        let lines = table.lines
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("target   sessions  fps  frames/s"))
        #expect(lines[0].hasSuffix("bar"))
        let row = lines[1].split(separator: " ", omittingEmptySubsequences: true)
        #expect(row.prefix(4) == ["sandbox", "498/500", "60", "29876"])
        #expect(lines[1].hasSuffix("✗"))  // two sessions never connected
        #expect(lines[1].count == lines[0].count)
        var balanced = BenchTable(balancer: true)
        balanced.add("sandbox", Self.result())
        #expect(balanced.lines[0].contains("balancer CPU"))
    }
}
