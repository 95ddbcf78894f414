/// Typed, strict access to a message object's fields: every miss or mistype is a `WireError`
/// naming the field and what it must be.
struct MessageFields {
    private(set) var object: [String: JSONValue]

    init(_ value: JSONValue) throws(WireError) {
        guard case .object(let object) = value else {
            throw WireError(.notAnObject, "a message must be one JSON object")
        }
        self.object = object
    }

    func has(_ key: String) -> Bool { object[key] != nil }

    /// The same fields without `key` (handled elsewhere: `configure`'s `network`).
    func removing(_ key: String) -> MessageFields {
        var copy = self
        copy.object[key] = nil
        return copy
    }

    func isNull(_ key: String) -> Bool { object[key] == .null }

    /// Refuses any key outside `allowed`, so a misspelt setting is an error, not a no-op.
    func onlyKnown(_ allowed: Set<String>) throws(WireError) {
        // The first unknown key in sorted order, so the error is the same whatever the order
        // (sorting only the unknown ones: the common case sorts nothing).
        if let unknown = object.keys.filter({ !allowed.contains($0) }).min() {
            throw WireError(.unknownField, "unknown field \(WireError.quoted(unknown))", field: unknown)
        }
    }

    func value(_ key: String) throws(WireError) -> JSONValue {
        guard let value = object[key] else { throw WireError(.missingField, "'\(key)' is required", field: key) }
        return value
    }

    func string(_ key: String) throws(WireError) -> String {
        guard case .string(let text) = try value(key) else {
            throw WireError(.invalidField, "'\(key)' must be a string, got \(try value(key).typeName)", field: key)
        }
        return text
    }

    /// A finite number (JSON has no NaN or Infinity; huge literals overflow to infinity and are refused).
    func number(_ key: String) throws(WireError) -> Double {
        try Self.number(try value(key), key)
    }

    static func number(_ value: JSONValue, _ key: String) throws(WireError) -> Double {
        guard case .number(let number) = value else {
            throw WireError(.invalidField, "'\(key)' must be a number, got \(value.typeName)", field: key)
        }
        guard number.isFinite else { throw WireError(.invalidField, "'\(key)' must be a finite number", field: key) }
        return number
    }

    /// A whole number that fits comfortably in 53 bits (exact in JSON's doubles).
    func integer(_ key: String) throws(WireError) -> Int {
        guard let integer = Self.wholeNumber(try number(key)) else {
            throw WireError(.invalidField, "'\(key)' must be a whole number", field: key)
        }
        return integer
    }

    /// `integer`'s rule, shared with `PointerFastPath`.
    static func wholeNumber(_ number: Double) -> Int? {
        guard number == number.rounded(), abs(number) <= 9_007_199_254_740_991 else { return nil }
        return Int(number)
    }

    func numbers(_ key: String, count: Int) throws(WireError) -> [Double] {
        guard case .array(let items) = try value(key), items.count == count else {
            throw WireError(.invalidField, "'\(key)' must be an array of \(count) numbers", field: key)
        }
        var out: [Double] = []
        for item in items { out.append(try Self.number(item, key)) }
        return out
    }

    func object(_ key: String) throws(WireError) -> MessageFields {
        let value = try value(key)
        guard case .object = value else {
            throw WireError(.invalidField, "'\(key)' must be an object, got \(value.typeName)", field: key)
        }
        return try MessageFields(value)
    }
}
