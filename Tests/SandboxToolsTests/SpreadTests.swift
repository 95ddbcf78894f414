import Testing

@testable import SandboxTools

@Suite("The median and range that --repeat sums up with")
struct SpreadTests {
    @Test("an odd count's median is the middle value, in any order")
    func odd() {
        let spread = Spread([3, 1, 2, 9, 5])
        #expect(spread == Spread([1, 2, 3, 5, 9]))
        #expect(spread?.median == 3 && spread?.min == 1 && spread?.max == 9)
    }

    @Test("an even count's median is the mean of the middle two")
    func even() {
        let spread = Spread([4, 1, 2, 10])
        #expect(spread?.median == 3 && spread?.min == 1 && spread?.max == 10)
    }

    @Test("non-finite values are left out; nothing left is nil")
    func nonFinite() {
        let spread = Spread([.nan, 2, .infinity, 4, -.infinity])
        #expect(spread?.median == 3 && spread?.min == 2 && spread?.max == 4)
        #expect(Spread([]) == nil)
        #expect(Spread([.nan, .infinity]) == nil)
    }

    @Test("its text and JSON")
    func forms() {
        let spread = Spread([1.234, 0.5, 2])!
        #expect(spread.text("%.2f") == "1.23 (0.50–2.00)")
        #expect(spread.json == #"{"median":1.234,"min":0.5,"max":2}"#)
    }
}
