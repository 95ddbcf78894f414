import Testing
import TransitionCore

@testable import SandboxSession

/// The frame path's quoted enum names (`QuotedCases`): every table the frame uses is usable (its
/// cases' tags are their indices), and each case's bytes are exactly its raw value, quoted — what
/// `JSONWriter.string` writes.
struct QuotedCasesTests {
    static func check<Case: CaseIterable & RawRepresentable>(_ table: QuotedCases<Case>) where Case.RawValue == String {
        #expect(table.usable)
        for value in Case.allCases {
            var w = JSONWriter(headroom: 0)
            w.name(value, in: table)
            #expect(w.finish().text == "\"\(value.rawValue)\"")
        }
    }

    @Test func layerIDs() { Self.check(QuotedNames.layerIDs) }
    @Test func contents() { Self.check(QuotedNames.contents) }
    @Test func shapes() { Self.check(QuotedNames.shapes) }
    @Test func phases() { Self.check(QuotedNames.phases) }

    /// An enum whose raw value needs escaping is not used from the table.
    enum Odd: String, CaseIterable {
        case plain
        case quote = "a\"b"
    }

    @Test func aNameThatNeedsEscapingIsNotTabled() {
        let table = QuotedCases<Odd>()
        defer { table.deallocate() }
        #expect(!table.usable)
        var w = JSONWriter(headroom: 0)
        w.name(Odd.quote, in: table)
        #expect(w.finish().text == #""a\"b""#)
    }
}

/// Review cases: a table made for a test is freed (`make check-sanitizers` runs with LeakSanitizer:
/// a table left allocated fails it), and an enum whose `allCases` leaves out its last cases —
/// every listed case's tag still its index, so the table is usable — never reads past the table
/// for a case it does not list.
struct QuotedCasesReviewTests {
    enum Partial: String, CaseIterable {
        case listed, alsoListed
        case unlisted = "un-listed"
        static var allCases: [Partial] { [.listed, .alsoListed] }
    }

    @Test func aCaseMissingFromAllCasesIsWrittenFromItsRawValue() {
        let table = QuotedCases<Partial>()
        defer { table.deallocate() }
        for value in [Partial.listed, .alsoListed, .unlisted] {
            var w = JSONWriter(headroom: 0)
            w.name(value, in: table)
            #expect(w.finish().text == "\"\(value.rawValue)\"")
        }
    }
}
