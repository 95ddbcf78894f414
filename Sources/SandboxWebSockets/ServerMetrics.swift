import Prometheus
import SandboxSession
import Synchronization

/// What `GET /metrics` reports (Prometheus' text format, through swift-prometheus), shared by
/// every service thread of a `ServerGroup`.
///
/// Cost on the hot path: every handle the per-message and per-frame paths touch is made once,
/// here, so counting is one relaxed atomic add on a swift-prometheus `Counter` (no lookup, no
/// lock); the two histograms take swift-prometheus' per-histogram lock once per input message and
/// once per display-link tick. Labels whose values come from a client (close codes) are folded
/// into a bounded set, so no client can grow the registry. The role gauges are counted by each
/// thread on its own state once a second (the watchdog tick) and summed at scrape time: a scrape
/// sees them at most a second old, and no thread ever reads another's connections.
public final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry

    let framesSent: Counter
    let bytesSent: Counter
    let bytesReceived: Counter
    /// Indexed like `ClientMessageType.allCases`, then one for messages that did not parse.
    let messagesReceived: [Counter]
    let messagesSent: [Counter]
    let inputSeconds: ValueHistogram
    let tickLateness: ValueHistogram
    let connectionGauges: [Gauge]  // by ConnectionRole.allCases
    let sessionGauge: Gauge
    /// Each thread's last count (a type of its own so the TSan suppression can name it: Tests/tsan.supp).
    private let threadCounts = Mutex(MetricsThreadCounts())

    /// The server's time for one input message (receive to every reply queued), in seconds.
    static let inputBuckets = [
        0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025,
    ]
    /// How late a display-link tick fired after its target, in seconds (a 60 fps period is 0.0167).
    static let latenessBuckets = [0.000_25, 0.000_5, 0.001, 0.002, 0.004, 0.008, 0.016, 0.033, 0.1]

    public init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "sandbox", metricName: metric, unitName: unit, helpText: help)
        }
        framesSent = registry.makeCounter(
            descriptor: name("frames_sent", "total", "Frames written to WebSocket connections."))
        bytesSent = registry.makeCounter(
            descriptor: name("sent", "bytes_total", "WebSocket payload bytes written (frames and replies)."))
        bytesReceived = registry.makeCounter(
            descriptor: name("received", "bytes_total", "WebSocket payload bytes received."))
        let received = name("messages_received", "total", "Client messages by type (invalid: did not parse).")
        messagesReceived = (ClientMessageType.allCases.map(\.rawValue) + ["invalid"]).map {
            registry.makeCounter(descriptor: received, labels: [("type", $0)])
        }
        let sent = name("messages_sent", "total", "Server messages other than frames, by type.")
        messagesSent = Self.sentTypes.map { registry.makeCounter(descriptor: sent, labels: [("type", $0)]) }
        inputSeconds = registry.makeValueHistogram(
            descriptor: name("input_duration", "seconds", "Server time per client message, receive to replies queued."),
            buckets: Self.inputBuckets)
        tickLateness = registry.makeValueHistogram(
            descriptor: name("tick_lateness", "seconds", "How late display-link ticks fired after their target time."),
            buckets: Self.latenessBuckets)
        let connections = name("connections", "", "Open WebSocket connections by role (updated every second).")
        connectionGauges = ConnectionRole.allCases.map {
            registry.makeGauge(descriptor: connections, labels: [("role", $0.rawValue)])
        }
        sessionGauge = registry.makeGauge(descriptor: name("sessions", "", "Live sessions (updated every second)."))
        registry.makeGauge(
            descriptor: name("build_info", "", "The running build (always 1; its version in the label)."),
            labels: [("version", BuildInfo.version)]
        ).set(1.0)
        // Made now so that a scrape lists them before the first one happens.
        for code in Self.closeCodeLabels { _ = closes(label: code) }
    }

    // MARK: - Hot path

    func received(_ type: ClientMessageType?, bytes: Int, seconds: Double) {
        messagesReceived[type.map(Self.index) ?? messagesReceived.count - 1].increment()
        bytesReceived.increment(by: Int64(bytes))
        inputSeconds.record(seconds)
    }

    func sentFrame(bytes: Int) {
        framesSent.increment()
        bytesSent.increment(by: Int64(bytes))
    }

    func sentReply(bytes: Int) {
        bytesSent.increment(by: Int64(bytes))
    }

    func sent(_ message: ServerMessage) {
        messagesSent[Self.sentIndex(message)].increment()
    }

    func tickFired(late seconds: Double) {
        tickLateness.record(max(0, seconds))
    }

    // MARK: - Rare events (a lookup under the registry's lock is fine)

    func error(code: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sandbox", metricName: "errors", unitName: "total",
                helpText: "Protocol errors sent to clients, by code."),
            labels: [("code", code)]
        ).increment()
    }

    func closed(code: Int) { closes(label: Self.closeLabel(code)).increment() }

    func refused(_ why: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sandbox", metricName: "refused", unitName: "total",
                helpText: "HTTP requests, WebSocket handshakes and sockets at accept refused, by reason."),
            labels: [("reason", why)]
        ).increment()
    }

    private func closes(label: String) -> Counter {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "sandbox", metricName: "closes", unitName: "total",
                helpText:
                    "WebSocket connections closed, by close code (1006: no close frame; 3xxx, 4xxx, other: folded)."),
            labels: [("code", label)])
    }

    /// One thread's counts (its watchdog tick): connections by role, and sessions.
    func publish(thread: Int, roles: [Int], sessions: Int) {
        threadCounts.withLock { (counts: inout MetricsThreadCounts) in counts.byThread[thread] = roles + [sessions] }
    }

    /// The exposition: the gauges summed over the threads, then every metric.
    public func render() -> [UInt8] {
        let counts = threadCounts.withLock { (counts: inout MetricsThreadCounts) in Array(counts.byThread.values) }
        for (index, gauge) in connectionGauges.enumerated() {
            gauge.set(Double(counts.reduce(0) { $0 + $1[index] }))
        }
        sessionGauge.set(Double(counts.reduce(0) { $0 + $1[ConnectionRole.allCases.count] }))
        return registry.emitToBuffer()
    }

    // MARK: - Labels

    /// Close codes a label may carry as they are: the ones RFC 6455 and the IANA registry define.
    /// A client chooses its own close code (any of 1000…4999 on the wire), so anything else is
    /// folded, or 4,000 codes could make 4,000 series.
    static let closeCodeLabels = (1000...1015).map(String.init) + ["3xxx", "4xxx", "other"]

    static func closeLabel(_ code: Int) -> String {
        switch code {
        case 1000...1015: return String(code)
        case 3000...3999: return "3xxx"
        case 4000...4999: return "4xxx"
        default: return "other"
        }
    }

    /// The position in `ClientMessageType.allCases` (a switch: a dictionary lookup hashed on
    /// every message cost more than the counting itself).
    static func index(_ type: ClientMessageType) -> Int {
        switch type {
        case .configure: return 0
        case .pointer: return 1
        case .ping: return 2
        case .join: return 3
        case .play: return 4
        case .scene: return 5
        case .present: return 6
        case .dismiss: return 7
        case .push: return 8
        case .pop: return 9
        case .device: return 10
        case .update: return 11
        case .attemptRotation: return 12
        case .updateSupportedOrientations: return 13
        case .requestGeometryUpdate: return 14
        case .sheet: return 15
        }
    }

    static let sentTypes = [
        "welcome", "configured", "pong", "error", "session-ended", "transition", "lifecycle", "scene-state", "link",
        "prediction",
    ]
    static func sentIndex(_ message: ServerMessage) -> Int {
        switch message {
        case .welcome: return 0
        case .configured: return 1
        case .pong: return 2
        case .error: return 3
        case .sessionEnded: return 4
        case .transition: return 5
        case .lifecycle: return 6
        case .sceneState: return 7
        case .link: return 8
        case .prediction: return 9
        }
    }
}

/// Each service thread's last count: connections by role (`ConnectionRole.allCases` order),
/// then sessions. Under `ServerMetrics`' mutex.
struct MetricsThreadCounts {
    var byThread: [Int: [Int]] = [:]
}
