import TransitionCore

/// The input hot path: a `pointer` message read straight from its bytes, without building a
/// `JSONValue` (a dictionary of strings: hashing, allocations, UTF-8 validation — 60 % of a
/// pointer's server time before this, `make bench-core`).
///
/// It accepts only the plain shape every client sends — one flat object whose keys are the
/// pointer's own (`type`, `phase`, `x`, `y`, `t`, `seq`, optional `pointerId` and `pointerType`),
/// each once and unescaped, strings of printable ASCII, numbers read by the parser's own
/// `JSONParser.number` — and whose values pass every check `PointerMessage.init(_:)` makes.
/// Anything else, valid or not, returns nil and goes the general way (`ClientMessage.parse`),
/// which accepts it or refuses it with the exact error. So it can only be faster, never
/// different: `PointerFastPathTests` checks that what it returns equals the general parse,
/// over generated and mutated messages.
enum PointerFastPath {
    private enum Field: Int, CaseIterable {
        case type, phase, x, y, t, seq, pointerId, pointerType

        var name: StaticString {
            switch self {
            case .type: "type"
            case .phase: "phase"
            case .x: "x"
            case .y: "y"
            case .t: "t"
            case .seq: "seq"
            case .pointerId: "pointerId"
            case .pointerType: "pointerType"
            }
        }

        /// The field named by `bytes`, compared as bytes (no String made): the one candidate
        /// its length and first byte leave, then every byte of it.
        static func named(_ bytes: UnsafeBufferPointer<UInt8>) -> Field? {
            guard let first = bytes.first else { return nil }
            let candidate: Field? =
                switch (bytes.count, first) {
                case (1, UInt8(ascii: "x")): .x
                case (1, UInt8(ascii: "y")): .y
                case (1, UInt8(ascii: "t")): .t
                case (3, _): .seq
                case (4, _): .type
                case (5, _): .phase
                case (9, _): .pointerId
                case (11, _): .pointerType
                default: nil
                }
            guard let candidate else { return nil }
            let matches = candidate.name.withUTF8Buffer { name in
                guard name.count == bytes.count else { return false }
                for index in 0..<name.count where name[index] != bytes[index] { return false }
                return true
            }
            return matches ? candidate : nil
        }
    }

    private static let phases = PointerEvent.Phase.allCases

    static func parse(_ bytes: [UInt8]) -> PointerMessage? {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> PointerMessage? {
        var reader = Reader(bytes: bytes)
        var seen = 0
        var phase: PointerEvent.Phase?
        var isPointer = false
        var numbers = (x: 0.0, y: 0.0, t: 0.0, seq: 0.0, pointerId: 0.0)
        reader.skipSpace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        reader.skipSpace()
        if reader.take(UInt8(ascii: "}")) { return nil }  // `{}`: the general path names what is missing
        while true {
            guard let key = reader.plainString(), let field = Field.named(key) else { return nil }
            guard seen & (1 << field.rawValue) == 0 else { return nil }  // repeated: refused there
            seen |= 1 << field.rawValue
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ":")) else { return nil }
            reader.skipSpace()
            switch field {
            case .type:
                guard let value = reader.plainString(), value.elementsEqual("pointer".utf8) else { return nil }
                isPointer = true
            case .phase:
                guard let value = reader.plainString() else { return nil }
                phase = phases.first { $0.rawValue.utf8.elementsEqual(value) }
                guard phase != nil else { return nil }
            case .pointerType:
                guard reader.plainString() != nil else { return nil }
            case .x: guard let value = reader.number() else { return nil }; numbers.x = value
            case .y: guard let value = reader.number() else { return nil }; numbers.y = value
            case .t: guard let value = reader.number() else { return nil }; numbers.t = value
            case .seq: guard let value = reader.number() else { return nil }; numbers.seq = value
            case .pointerId: guard let value = reader.number() else { return nil }; numbers.pointerId = value
            }
            reader.skipSpace()
            if reader.take(UInt8(ascii: "}")) { break }
            guard reader.take(UInt8(ascii: ",")) else { return nil }
            reader.skipSpace()
        }
        reader.skipSpace()
        guard reader.atEnd, isPointer, let phase else { return nil }
        let required = 1 << Field.x.rawValue | 1 << Field.y.rawValue | 1 << Field.t.rawValue | 1 << Field.seq.rawValue
        guard seen & required == required,
            let seq = MessageFields.wholeNumber(numbers.seq),
            let pointerID = MessageFields.wholeNumber(numbers.pointerId),
            PointerMessage.inRange(x: numbers.x, y: numbers.y, time: numbers.t)
        else { return nil }
        return PointerMessage(phase: phase, x: numbers.x, y: numbers.y, time: numbers.t, seq: seq, pointerID: pointerID)
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string of printable ASCII without escapes (its contents, quotes excluded); nil
        /// for anything else, which the general path reads.
        mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let c = bytes[index]
                if c == UInt8(ascii: "\"") {
                    index += 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<index - 1])
                }
                guard c >= 0x20, c < 0x7F, c != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            return nil
        }

        mutating func number() -> Double? {
            guard let (value, end) = JSONParser.number(in: bytes, at: index) else { return nil }
            index = end
            return value
        }
    }
}

extension PointerMessage {
    /// The fast path's message, already checked as `init(_:)` checks (see `PointerFastPath`).
    fileprivate init(phase: PointerEvent.Phase, x: Double, y: Double, time: Double, seq: Int, pointerID: Int) {
        self.phase = phase
        self.x = x
        self.y = y
        self.time = time
        self.seq = seq
        self.pointerID = pointerID
    }
}
