/// A client's optional `"id"` on a message, echoed on the replies the message causes to its
/// sender and on any `error` it caused (docs/PROTOCOL.md, "Request ids"): 1…64 characters of
/// `A-Z a-z 0-9 . _ : -`, so an echo is short and needs no escaping. `RequestIDTests` holds it.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    /// The most characters an id may have.
    public static let maximumLength = 64

    /// Nil when `text` is not a valid id.
    public init?(_ text: String) {
        let utf8 = text.utf8
        guard (1...Self.maximumLength).contains(utf8.count), utf8.allSatisfy(Self.isAllowed) else { return nil }
        self.text = text
    }

    public var description: String { text }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
            UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// The message's `id`, if it has one. A bad one is refused with `invalid-field` naming `id`,
    /// an error that carries no id itself (there is no valid one to echo).
    static func read(from fields: MessageFields) throws(WireError) -> RequestID? {
        guard fields.has("id") else { return nil }
        let value = try fields.value("id")
        guard case .string(let text) = value, let id = RequestID(text) else {
            throw WireError(
                .invalidField,
                "'id' must be a string of 1 to \(maximumLength) characters from A-Z a-z 0-9 . _ : -",
                field: "id")
        }
        return id
    }
}

/// A client message with its request id (nil: the message carried none).
struct ClientRequest {
    let id: RequestID?
    let message: ClientMessage

    /// Parses one message; an error after a valid `id` was read carries that id.
    static func parse(_ bytes: [UInt8]) throws(WireError) -> ClientRequest {
        // Most messages are pointer moves: read straight from the bytes when plain (never with an id).
        if let pointer = PointerFastPath.parse(bytes) { return ClientRequest(id: nil, message: .pointer(pointer)) }
        let fields = try MessageFields(try JSONValue.parse(bytes))
        let id = try RequestID.read(from: fields)
        do throws(WireError) {
            return ClientRequest(id: id, message: try ClientMessage.decode(id == nil ? fields : fields.removing("id")))
        } catch {
            var error = error
            error.requestID = id
            throw error
        }
    }
}
