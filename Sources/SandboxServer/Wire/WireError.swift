import TransitionCore

/// An error reply: a stable code (docs/PROTOCOL.md lists them) and a human message.
struct WireError: Error, Equatable {
    enum Code: String {
        case invalidJSON = "invalid-json"
        case notAnObject = "not-an-object"
        case unknownType = "unknown-type"
        case missingField = "missing-field"
        case invalidField = "invalid-field"
        case unknownField = "unknown-field"
        case invalidConfig = "invalid-config"
        case sequence = "bad-seq"
        case busy = "busy"
        case unknownSession = "unknown-session"
        case notDriver = "not-driver"
        case binary = "binary-not-supported"
        case tooManyReplies = "too-many-replies"
        case rateLimited = "rate-limited"
        // The engine's input errors keep their own codes (InputError.code).
        case nonFinite = "non-finite"
        case timeWentBackwards = "time-went-backwards"
        case pointerNotDown = "pointer-not-down"
        case pointerAlreadyDown = "pointer-already-down"
        case tooManyPointers = "too-many-pointers"
    }

    let code: String
    let message: String
    var seq: Int?

    init(_ code: Code, _ message: String, seq: Int? = nil, field: String? = nil) {
        self.code = code.rawValue
        self.message = message
        self.seq = seq
        self.field = field
    }

    init(_ input: InputError, seq: Int?) {
        code = input.code
        message = input.description
        self.seq = seq
    }

    init(_ configuration: ConfigurationError) {
        code = Code.invalidConfig.rawValue
        message = configuration.description
        seq = nil
        field = configuration.field
    }

    /// The offending field, when one is to blame.
    var field: String?
}
