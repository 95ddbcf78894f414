import TransitionCore

/// An error reply: a stable code (docs/PROTOCOL.md lists them) and a human message.
public struct WireError: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
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
        case tooManyViewers = "too-many-viewers"
        case notDriver = "not-driver"
        case binary = "binary-not-supported"
        case tooManyReplies = "too-many-replies"
        case rateLimited = "rate-limited"
        case overBudget = "over-budget"
        // The engine's input errors keep their own codes (InputError.code).
        case nonFinite = "non-finite"
        case timeWentBackwards = "time-went-backwards"
        case pointerNotDown = "pointer-not-down"
        case pointerAlreadyDown = "pointer-already-down"
        case tooManyPointers = "too-many-pointers"
        // The scene's own errors keep their codes (SceneError.code).
        case noScene = "no-scene"
        case nothingArmed = "nothing-armed"
        case sceneRateLimited = "scene-rate-limited"
    }

    public let code: String
    /// Capped at `maximumMessageBytes` as written (see `truncated(_:limit:)`).
    public let message: String
    public var seq: Int?
    /// The `id` of the message that caused the error, echoed (`RequestID`); nil when it had none.
    public var requestID: RequestID?

    public init(_ code: Code, _ message: String, seq: Int? = nil, field: String? = nil) {
        self.code = code.rawValue
        self.message = Self.truncated(message, limit: Self.maximumMessageBytes)
        self.seq = seq
        self.field = field
    }

    init(_ input: InputError, seq: Int?) {
        code = input.code
        message = Self.truncated(input.description, limit: Self.maximumMessageBytes)
        self.seq = seq
    }

    init(_ scene: SceneError) {
        code = scene.code
        message = Self.truncated(scene.description, limit: Self.maximumMessageBytes)
        seq = nil
    }

    init(_ configuration: ConfigurationError) {
        code = Code.invalidConfig.rawValue
        message = Self.truncated(configuration.description, limit: Self.maximumMessageBytes)
        seq = nil
        field = configuration.field
    }

    /// The offending field, when one is to blame; capped at `maximumEchoBytes` however it is
    /// set (callers also set it after `init`, e.g. to prefix a nested path).
    public var field: String? {
        get { cappedField }
        set { cappedField = newValue.map { Self.truncated($0, limit: Self.maximumEchoBytes) } }
    }
    private var cappedField: String?

    // MARK: - Bounded echoes of client input

    /// The most bytes of client text an error echoes (as written on the wire, before the "…").
    static let maximumEchoBytes = 64
    /// The safety net for a whole message: ours are under 200 bytes, plus at most one echo.
    static let maximumMessageBytes = 300

    /// `text` cut to at most `limit` bytes *as JSON writes them* (a tab costs 6, `\u0009`), on a
    /// Character boundary, with "…" appended when anything was cut. An error reply that echoes
    /// a client's field name, type or value is then bounded whatever the client sent: unbounded,
    /// a key of 32,700 tabs came back twice, as 196 KB each.
    static func truncated(_ text: String, limit: Int = maximumEchoBytes) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let cost = text[index].unicodeScalars.reduce(0) { $0 + escapedCost($1) }
            if used + cost > limit { return String(text[..<end]) + "…" }
            used += cost
            end = text.index(after: index)
        }
        return text
    }

    /// Client text quoted for a message: `'…'`, truncated as `truncated(_:limit:)` does. Use it
    /// wherever a message names something the client sent (a field name, a type, a phase, an id).
    /// Control and formatting characters (a right-to-left override, zero-width joiners) are
    /// shown as `U+202E`, never echoed as themselves: an error message must not reorder or hide
    /// the text around it in a log or a page (`quoted(_:) shows control and format characters`).
    static func quoted(_ text: String) -> String {
        "'\(truncated(visible(text)))'"
    }

    /// `text` with every control (Cc) and format (Cf) scalar written as `U+XXXX`; reads only as
    /// far as an echo can show (a longer prefix could not survive `truncated` anyway).
    static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(maximumEchoBytes + 1) {
            switch scalar.properties.generalCategory {
            case .control, .format:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Bytes `JSONWriter.string` writes for one scalar.
    private static func escapedCost(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x22, 0x5C, 0x0A: return 2  // \" \\ \n
        case 0..<0x20: return 6  // \u00XX
        default: return UTF8.width(scalar)
        }
    }
}
