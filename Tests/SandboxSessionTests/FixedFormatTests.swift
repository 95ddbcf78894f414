import Testing

@testable import SandboxSession

/// The frame path's number formatting (`ByteBuffer.appendFixed`, `appendInteger`) against a plain
/// reference built from `Double.rounded()` and `String` — the formatting the wire has always had
/// (docs/PROTOCOL.md, "Numbers"): traces stay byte-identical only if every value formats the same.
struct FixedFormatTests {
    /// The reference: round half away from zero at `decimals` places, whole part, fraction with
    /// its leading zeros kept and its trailing zeros dropped, `-0` as `0`.
    static func reference(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        let scaled = (value * power).rounded()
        guard abs(scaled) < 9_007_199_254_740_992 else {
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
        }
        let units = Int64(scaled)
        if units == 0 { return "0" }
        let divisor = UInt64(power)
        var text = (units < 0 ? "-" : "") + String(units.magnitude / divisor)
        let fraction = units.magnitude % divisor
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            while digits.last == "0" { digits.removeLast() }
            text += "." + digits
        }
        return text
    }

    static func formatted(_ value: Double, _ decimals: Int) -> String {
        let buffer = ByteBuffer(capacity: 8)
        buffer.appendFixed(value, decimals: decimals)
        return String(decoding: UnsafeRawBufferPointer(start: buffer.base, count: buffer.count), as: UTF8.self)
    }

    /// A fixed-seed generator: the same values every run, so a failure names its value.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: 0...9)
    func fixedMatchesTheReference(_ decimals: Int) {
        var random = SplitMix(state: UInt64(decimals) &* 7919 &+ 1)
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        for index in 0..<20_000 {
            let value: Double
            switch index % 5 {
            case 0: value = Double.random(in: -1_000...1_000, using: &random)  // points
            case 1: value = Double.random(in: -1...1, using: &random)  // multipliers, progress
            case 2:
                // Exact ties at this precision (k + ½) / 10^decimals, where representable.
                value = (Double(Int.random(in: -100_000...100_000, using: &random)) + 0.5) / power
            case 3: value = Double(Int.random(in: -5_000...5_000, using: &random)) / power  // round values
            default:
                // Any magnitude, up to past 2⁵³ after scaling.
                value = Double(
                    sign: Bool.random(using: &random) ? .minus : .plus,
                    exponent: Int.random(in: -40...70, using: &random),
                    significand: Double.random(in: 1..<2, using: &random))
            }
            let got = Self.formatted(value, decimals), expected = Self.reference(value, decimals)
            guard got == expected else {
                Issue.record("\(value) at \(decimals) places: \(got), expected \(expected)")
                return
            }
        }
    }

    @Test(
        arguments: [
            (0.5, 0, "1"), (-0.5, 0, "-1"), (2.5, 0, "3"), (0.125, 2, "0.13"), (-0.125, 2, "-0.13"),
            (0.49999999999999994, 0, "0"), (4_503_599_627_370_495.5, 0, "4503599627370496"),
            (9_007_199_254_740_991, 0, "9007199254740991"), (-0.0, 3, "0"), (1e-9, 9, "0.000000001"),
        ] as [(Double, Int, String)])
    func edges(_ value: Double, _ decimals: Int, _ text: String) {
        #expect(Self.formatted(value, decimals) == text)
        #expect(Self.reference(value, decimals) == text)
    }

    @Test(arguments: [0, 1, -1, 9, 10, 99, 100, 1_234_567, -987_654_321, Int64.max, Int64.min] as [Int64])
    func integers(_ value: Int64) {
        let buffer = ByteBuffer(capacity: 8)
        buffer.appendInteger(value)
        #expect(
            String(decoding: UnsafeRawBufferPointer(start: buffer.base, count: buffer.count), as: UTF8.self)
                == String(value))
    }
}
