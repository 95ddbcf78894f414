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

    /// Parses one JSON document (strictly: see `JSONParser`); a `SyntaxError` says where it failed.
    public static func decode(_ data: Data) throws(SyntaxError) -> JSONValue {
        do {
            return try JSONParser.parse(Array(data))
        } catch {
            throw SyntaxError(offset: error.offset)
        }
    }

    /// Not JSON (or beyond the parser's bounds): `offset` is the byte it gave up at.
    public struct SyntaxError: Error, Sendable {
        public let offset: Int
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var number: Double? { if case .number(let value) = self { return value } else { return nil } }
    public var string: String? { if case .string(let value) = self { return value } else { return nil } }

    /// Writes the value, object keys sorted (so the same value always gives the same bytes).
    public func write(to w: inout JSONWriter) {
        switch self {
        case .null: w.null()
        case .bool(let value): w.bool(value)
        case .number(let value): w.number(value)
        case .string(let value): w.string(value)
        case .array(let items):
            w.beginArray()
            for item in items { item.write(to: &w) }
            w.endArray()
        case .object(let object):
            w.beginObject()
            for key in object.keys.sorted() {
                w.dynamicKey(key)
                object[key]!.write(to: &w)
            }
            w.endObject()
        }
    }

    /// Compact JSON text, object keys sorted (see `write(to:)`).
    public var jsonText: String {
        var w = JSONWriter(headroom: 0)
        write(to: &w)
        return w.finish().text
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
