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
        #expect(!table.usable)
        var w = JSONWriter(headroom: 0)
        w.name(Odd.quote, in: table)
        #expect(w.finish().text == #""a\"b""#)
    }
}
