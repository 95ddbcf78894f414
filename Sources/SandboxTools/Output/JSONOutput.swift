import SandboxSession

/// A tool's report that `--json` prints. Written by `JSONWriter`, the one JSON writer, so every
/// string in it (URLs, script names, error text) is escaped.
public protocol JSONWritable {
    func write(to w: inout JSONWriter)
}

extension JSONWritable {
    /// Compact JSON text.
    public var json: String { JSONText.write { write(to: &$0) } }
}

extension Array where Element: JSONWritable {
    /// A JSON array with one element per line (several reports printed together).
    public var jsonOnePerLine: String { map { $0 as any JSONWritable }.jsonOnePerLine }
}

extension Array where Element == any JSONWritable {
    /// Reports of different kinds (`bench --repeat`'s runs and their summary).
    public var jsonOnePerLine: String {
        "[" + map(\.json).joined(separator: ",\n") + "]"
    }
}

extension JSONWriter {
    /// The value's JSON, or null.
    mutating func value(_ value: (some JSONWritable)?) {
        if let value { value.write(to: &self) } else { null() }
    }

    mutating func number(_ value: Double?) {
        if let value { number(value) } else { null() }
    }

    /// `{"target":"summary","runs":N` — the start of `--repeat`'s summary (bench, latency);
    /// the caller writes the rest and ends the object.
    mutating func beginSummary(runs: Int) {
        beginObject()
        key("target")
        string("summary")
        key("runs")
        integer(runs)
    }

    /// The value at `decimals` places (trailing zeros dropped), or null.
    mutating func fixed(_ value: Double?, _ decimals: Int) {
        if let value { fixed(value, decimals) } else { null() }
    }

    mutating func integer(_ value: Int?) {
        if let value { integer(value) } else { null() }
    }
}

/// One JSON text written by `body`.
enum JSONText {
    static func write(capacity: Int = 256, _ body: (inout JSONWriter) -> Void) -> String {
        var w = JSONWriter(headroom: 0, capacity: capacity)
        body(&w)
        return w.finish().text
    }
}
