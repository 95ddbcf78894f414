import Foundation

/// A parsed JSON value: `true` stays a boolean and never passes for the number 1, and numbers
/// outside a Double's range are refused. Parsed by `JSONParser` (the hot path); `Decodable`
/// too, which the parser's tests use as the reference.
/// Public for the headless tools, which read pan scripts and frames with it.
public enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    static func parse(_ bytes: [UInt8]) throws(WireError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw WireError(.invalidJSON, "the message is not valid JSON")
        }
    }

    /// Parses one JSON document (strictly: see `JSONParser`).
    public static func decode(_ data: Data) throws -> JSONValue {
        try JSONParser.parse(Array(data))
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var number: Double? { if case .number(let value) = self { return value } else { return nil } }
    public var string: String? { if case .string(let value) = self { return value } else { return nil } }

    /// Compact JSON text, object keys sorted (so the same value always gives the same bytes).
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return "\(value)"
        case .string(let value):
            let data = (try? JSONEncoder().encode(value)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        case .array(let items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let object):
            let fields = object.keys.sorted().map { JSONValue.string($0).jsonText + ":" + object[$0]!.jsonText }
            return "{" + fields.joined(separator: ",") + "}"
        }
    }

    /// A short description of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
