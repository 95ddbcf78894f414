/// A connection's simulated network, one way (both directions get it): a message is held
/// `delayMs` ± up to `jitterMs` — the delay moving smoothly between targets drawn uniformly every
/// 250 ms from `seed` (`DelayLine`) — and delivered in order (`NetworkLink`). Zero delay and
/// jitter: no simulation at all.
public struct NetworkConditions: Equatable, Sendable, CustomStringConvertible {
    public var delayMs: Double
    public var jitterMs: Double
    public var seed: Int

    /// The ranges `configure` and `serve --network` accept: enough for a satellite hop and a
    /// very bad day; more would only hold memory (held messages count against the connection's
    /// byte bound) and time out the page's clock sync.
    public static let delayRange = 0.0...2000.0
    public static let jitterRange = 0.0...1000.0
    /// Seeds are JSON integers (exact in a double).
    public static let seedRange = 0...9_007_199_254_740_991

    public static let loopback = NetworkConditions()

    public init(delayMs: Double = 0, jitterMs: Double = 0, seed: Int = 1) {
        self.delayMs = delayMs
        self.jitterMs = jitterMs
        self.seed = seed
    }

    /// Whether messages are held at all.
    public var isActive: Bool { delayMs > 0 || jitterMs > 0 }

    /// `60±20` (also `60+-20`, `60`, and `60±20@7` with a seed), as `serve --network`,
    /// `pan --network` and `latency --network` take it. Nil when malformed or out of range.
    public init?(argument: String) {
        var text = Substring(argument)
        var seed = 1
        if let at = text.firstIndex(of: "@") {
            guard let parsed = Int(text[text.index(after: at)...]), Self.seedRange.contains(parsed) else { return nil }
            seed = parsed
            text = text[..<at]
        }
        let parts: [Substring]
        if text.contains("±") {
            parts = text.split(separator: "±", omittingEmptySubsequences: false)
        } else if let range = text.range(of: "+-") {
            parts = [text[..<range.lowerBound], text[range.upperBound...]]
        } else {
            parts = [text]
        }
        guard parts.count <= 2, let delay = Double(parts[0]), Self.delayRange.contains(delay) else { return nil }
        var jitter = 0.0
        if parts.count == 2 {
            guard let parsed = Double(parts[1]), Self.jitterRange.contains(parsed) else { return nil }
            jitter = parsed
        }
        self.init(delayMs: delay, jitterMs: jitter, seed: seed)
    }

    public var description: String {
        func format(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        return "\(format(delayMs))±\(format(jitterMs)) ms (seed \(seed))"
    }

    /// A `configure`'s `network` object applied: fields present replace, absent ones are kept.
    /// Throws, naming the field as `network.NAME`, on anything else.
    func applying(_ fields: MessageFields) throws(WireError) -> NetworkConditions {
        var next = self
        do throws(WireError) {
            try fields.onlyKnown(["delayMs", "jitterMs", "seed"])
            if fields.has("delayMs") { next.delayMs = try Self.within(Self.delayRange, fields, "delayMs") }
            if fields.has("jitterMs") { next.jitterMs = try Self.within(Self.jitterRange, fields, "jitterMs") }
            if fields.has("seed") {
                let seed = try fields.integer("seed")
                guard Self.seedRange.contains(seed) else {
                    throw WireError(
                        .invalidField, "'seed' must be a whole number in [0, 2^53 − 1]; got \(seed)", field: "seed")
                }
                next.seed = seed
            }
        } catch {
            var nested = error  // name the field by its path, as `spring.damping` is
            nested.field = error.field.map { "network.\($0)" }
            throw nested
        }
        return next
    }

    private static func within(_ range: ClosedRange<Double>, _ fields: MessageFields, _ key: String) throws(WireError)
        -> Double
    {
        let value = try fields.number(key)
        guard range.contains(value) else {
            throw WireError(
                .invalidField,
                "'\(key)' must be in [\(Int(range.lowerBound)), \(Int(range.upperBound))] ms; got \(value)", field: key)
        }
        return value
    }

    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("delayMs"); w.number(delayMs)
        w.key("jitterMs"); w.number(jitterMs)
        w.key("seed"); w.integer(seed)
        w.endObject()
    }
}
