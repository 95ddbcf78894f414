/// Why an input event was refused. A refused event changes nothing.
public enum InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A coordinate or the timestamp is NaN or infinite.
    case nonFiniteValue
    /// A coordinate is beyond ±`PointerEvent.coordinateLimit`.
    case coordinateOutOfRange(x: Double, y: Double)
    /// The timestamp is earlier than the previous event's.
    case timeWentBackwards(previous: Double, got: Double)
    /// move / up / cancel for a pointer that is not down.
    case pointerNotDown(Int)
    /// down for a pointer that is already down.
    case pointerAlreadyDown(Int)
    /// More pointers down at once than the recognizer tracks.
    case tooManyPointers(limit: Int)

    /// A stable code for the wire protocol.
    public var code: String {
        switch self {
        case .nonFiniteValue: return "non-finite"
        // The server refuses such coordinates itself, as `invalid-field` naming x or y; the
        // engine's own refusal (a backstop) keeps the same code rather than adding one.
        case .coordinateOutOfRange: return "invalid-field"
        case .timeWentBackwards: return "time-went-backwards"
        case .pointerNotDown: return "pointer-not-down"
        case .pointerAlreadyDown: return "pointer-already-down"
        case .tooManyPointers: return "too-many-pointers"
        }
    }

    public var description: String {
        switch self {
        case .nonFiniteValue: return "coordinates and time must be finite numbers"
        case let .coordinateOutOfRange(x, y):
            return "coordinates must be within ±\(PointerEvent.coordinateLimit) pt; got (\(x), \(y))"
        case let .timeWentBackwards(previous, got):
            return "time went backwards: \(got) s after an event at \(previous) s"
        case let .pointerNotDown(id): return "pointer \(id) is not down"
        case let .pointerAlreadyDown(id): return "pointer \(id) is already down"
        case let .tooManyPointers(limit): return "at most \(limit) pointers may be down at once"
        }
    }
}
