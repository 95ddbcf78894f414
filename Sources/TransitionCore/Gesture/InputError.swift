/// Why an input event was refused. A refused event changes nothing.
public enum InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A coordinate or the timestamp is NaN or infinite.
    case nonFiniteValue
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
        case .timeWentBackwards: return "time-went-backwards"
        case .pointerNotDown: return "pointer-not-down"
        case .pointerAlreadyDown: return "pointer-already-down"
        case .tooManyPointers: return "too-many-pointers"
        }
    }

    public var description: String {
        switch self {
        case .nonFiniteValue: return "coordinates and time must be finite numbers"
        case let .timeWentBackwards(previous, got):
            return "time went backwards: \(got) s after an event at \(previous) s"
        case let .pointerNotDown(id): return "pointer \(id) is not down"
        case let .pointerAlreadyDown(id): return "pointer \(id) is already down"
        case let .tooManyPointers(limit): return "at most \(limit) pointers may be down at once"
        }
    }
}
