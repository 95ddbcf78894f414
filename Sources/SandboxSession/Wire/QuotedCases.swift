import TransitionCore

/// The quoted raw values of a string enum's cases, made once and kept for the process, so a
/// frame copies `"from"` instead of reading the `String` and scanning it for escapes (callgrind
/// counted that at 4 % of a frame's instructions, docs/PERFORMANCE.md "Frame cost"). A case is
/// found by its tag — for an enum without payloads, its index in declaration order, which is
/// `allCases`' order (Swift's documented type layout) — and the table is used only when that
/// was checked for every case when it was made (else `string(_:)`'s path): `QuotedCasesTests`.
struct QuotedCases<Case: CaseIterable & RawRepresentable>: @unchecked Sendable where Case.RawValue == String {
    // Never freed: one table per enum for the process (a few hundred bytes); read-only once made.
    private let bytes: UnsafeMutableRawPointer
    private let starts: UnsafeMutablePointer<Int>
    /// How many cases `allCases` lists (`starts` holds one more).
    private let caseCount: Int
    /// False if a case's tag did not match its index, or a name needed escaping.
    let usable: Bool

    init() {
        let cases = Array(Case.allCases)
        let names = cases.map { "\"" + $0.rawValue + "\"" }
        let total = names.reduce(0) { $0 + $1.utf8.count }
        bytes = .allocate(byteCount: max(total, 1), alignment: 1)
        starts = .allocate(capacity: cases.count + 1)
        caseCount = cases.count
        var offset = 0
        for (index, name) in names.enumerated() {
            starts[index] = offset
            for unit in name.utf8 {
                bytes.storeBytes(of: unit, toByteOffset: offset, as: UInt8.self)
                offset += 1
            }
        }
        starts[cases.count] = offset
        usable =
            MemoryLayout<Case>.size == 1 && cases.count <= 256
            && cases.enumerated().allSatisfy { index, value in Int(Self.tag(value)) == index }
            && cases.allSatisfy { !$0.rawValue.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }
    }

    private static func tag(_ value: Case) -> UInt8 { unsafeBitCast(value, to: UInt8.self) }

    /// Frees a table that is not kept for the process (a test's): `QuotedNames`' never are.
    func deallocate() {
        bytes.deallocate()
        starts.deallocate()
    }

    /// `"rawValue"`'s bytes (only when `usable`); nil for a case `allCases` does not list (a
    /// hand-written `allCases` may leave out the last cases: every listed tag then matches its
    /// index, and that case's tag is past the table).
    @inline(__always)
    func quoted(_ value: Case) -> UnsafeRawBufferPointer? {
        let index = Int(Self.tag(value))
        guard index < caseCount else { return nil }
        return UnsafeRawBufferPointer(start: bytes + starts[index], count: starts[index + 1] - starts[index])
    }
}

/// The tables the frame path uses.
enum QuotedNames {
    static let layerIDs = QuotedCases<LayerID>()
    static let contents = QuotedCases<LayerContent>()
    static let shapes = QuotedCases<LayerShape>()
    static let phases = QuotedCases<TransitionPhase>()
}

extension JSONWriter {
    /// `value`'s raw value as a JSON string, from `table` when it is usable.
    @inline(__always)
    mutating func name<Case>(_ value: Case, in table: QuotedCases<Case>) {
        guard table.usable, let quoted = table.quoted(value) else { return string(value.rawValue) }
        appendQuoted(quoted)
    }
}
