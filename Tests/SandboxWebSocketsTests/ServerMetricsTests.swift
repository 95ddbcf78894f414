import SandboxSession
import Testing

@testable import SandboxWebSockets

/// `GET /metrics`' content: what is counted, how client-chosen labels are bounded, and the role
/// gauges summed over threads.
@Suite("ServerMetrics") struct ServerMetricsTests {
    static func text(_ metrics: ServerMetrics) -> String { String(decoding: metrics.render(), as: UTF8.self) }

    static func value(_ text: String, _ series: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.map { String($0.split(separator: " ").last!) }
    }

    @Test func closeCodesChosenByClientsAreFolded() {
        #expect(ServerMetrics.closeLabel(1000) == "1000")
        #expect(ServerMetrics.closeLabel(1006) == "1006")
        #expect(ServerMetrics.closeLabel(1016) == "other")
        #expect(ServerMetrics.closeLabel(3001) == "3xxx")
        #expect(ServerMetrics.closeLabel(4999) == "4xxx")
        #expect(ServerMetrics.closeLabel(65535) == "other")
        #expect(ServerMetrics.closeLabel(-1) == "other")
        let metrics = ServerMetrics()
        for code in 0..<70_000 where code % 7 == 0 { metrics.closed(code: code) }
        let text = Self.text(metrics)
        // Every series the 10,000 codes could make: the fixed label set, nothing more.
        let series = text.split(separator: "\n").filter { $0.hasPrefix("sandbox_closes_total{") }
        #expect(series.count == ServerMetrics.closeCodeLabels.count)
    }

    @Test func countsWhatHappened() {
        let metrics = ServerMetrics()
        metrics.received(.pointer, bytes: 80, seconds: 0.000_03)
        metrics.received(.pointer, bytes: 80, seconds: 0.000_2)
        metrics.received(nil, bytes: 5, seconds: 0.000_01)
        metrics.sentFrame(bytes: 1000)
        metrics.sentReply(bytes: 50)
        metrics.sent(.pong(seq: 1, t: 0, serverTime: 0))
        metrics.error(code: "bad-seq")
        metrics.error(code: "bad-seq")
        metrics.refused("host")
        metrics.tickFired(late: 0.003)
        metrics.tickFired(late: -1)  // early (the clock's resolution): counted as on time
        let text = Self.text(metrics)
        #expect(Self.value(text, #"sandbox_messages_received_total{type="pointer"}"#) == "2")
        #expect(Self.value(text, #"sandbox_messages_received_total{type="invalid"}"#) == "1")
        #expect(Self.value(text, "sandbox_received_bytes_total") == "165")
        #expect(Self.value(text, "sandbox_sent_bytes_total") == "1050")
        #expect(Self.value(text, "sandbox_frames_sent_total") == "1")
        #expect(Self.value(text, #"sandbox_messages_sent_total{type="pong"}"#) == "1")
        #expect(Self.value(text, #"sandbox_errors_total{code="bad-seq"}"#) == "2")
        #expect(Self.value(text, #"sandbox_refused_total{reason="host"}"#) == "1")
        #expect(Self.value(text, "sandbox_input_duration_seconds_count") == "3")
        #expect(Self.value(text, #"sandbox_input_duration_seconds_bucket{le="5e-05"}"#) == "2")
        #expect(Self.value(text, "sandbox_tick_lateness_seconds_count") == "2")
        #expect(Self.value(text, #"sandbox_tick_lateness_seconds_bucket{le="0.00025"}"#) == "1")
        #expect(text.contains("# TYPE sandbox_input_duration_seconds histogram"))
    }

    @Test func roleGaugesAreSummedOverThreadsAndReplacedByEachNewCount() {
        let metrics = ServerMetrics()
        metrics.publish(thread: 0, roles: [2, 1, 0], sessions: 2)
        metrics.publish(thread: 1, roles: [1, 0, 1], sessions: 1)
        metrics.publish(thread: 1, roles: [1, 3, 0], sessions: 1)
        let text = Self.text(metrics)
        #expect(Self.value(text, #"sandbox_connections{role="driver"}"#) == "3.0")
        #expect(Self.value(text, #"sandbox_connections{role="viewer"}"#) == "4.0")
        #expect(Self.value(text, #"sandbox_connections{role="idle"}"#) == "0.0")
        #expect(Self.value(text, "sandbox_sessions") == "3.0")
    }

    @Test func theIndexOfATypeIsItsPlaceInAllCases() {
        for (position, type) in ClientMessageType.allCases.enumerated() {
            #expect(ServerMetrics.index(type) == position)
        }
    }

    @Test func everyMessageTypeHasItsSeries() {
        let text = Self.text(ServerMetrics())
        for type in ClientMessageType.allCases {
            #expect(text.contains(#"sandbox_messages_received_total{type="\#(type.rawValue)"} 0"#))
        }
        for type in ServerMetrics.sentTypes {
            #expect(text.contains(#"sandbox_messages_sent_total{type="\#(type)"} 0"#))
        }
    }

    /// Prometheus' info-metric convention (a gauge of 1 whose labels carry the facts): the
    /// version `sandbox --version` prints, from the one constant.
    @Test func buildInfoNamesTheVersion() {
        let text = Self.text(ServerMetrics())
        #expect(Self.value(text, #"sandbox_build_info{version="\#(BuildInfo.version)"}"#) == "1.0")
        #expect(text.contains("# TYPE sandbox_build_info gauge"))
    }
}
