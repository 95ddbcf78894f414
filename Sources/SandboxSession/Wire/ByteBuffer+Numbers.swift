/// Numbers, written in place (no `String` but for the shortest form's rare fallbacks).
extension ByteBuffer {
    func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Decimal digits of a whole number.
    func appendInteger(_ value: Int64) {
        let magnitude = value.magnitude
        // Most of a frame's whole numbers (a transform's 1 and 0, z, sizes) have three digits
        // or fewer: written without a loop.
        guard magnitude < 1000 else { return appendDecimal(magnitude, negative: value < 0, decimals: 0) }
        reserve(4)
        var at = base + count
        if value < 0 {
            at.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
            at += 1
        }
        let digit = { (value: UInt64) in UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value) }
        if magnitude >= 100 {
            at.storeBytes(of: digit(magnitude / 100), as: UInt8.self)
            at += 1
        }
        if magnitude >= 10 {
            at.storeBytes(of: digit(magnitude / 10 % 10), as: UInt8.self)
            at += 1
        }
        at.storeBytes(of: digit(magnitude % 10), as: UInt8.self)
        count = at + 1 - base
    }

    /// `magnitude` (≠ 0 unless `decimals` is 0) as `[-]digits[.fraction]`, its last `decimals`
    /// digits after the point, `0.` before a fraction with no whole part; trailing zeros of the
    /// fraction dropped. Written backwards in place, two digits a step, after one `reserve`: the
    /// frame path writes about 60 numbers a frame (callgrind, docs/PERFORMANCE.md "Frame cost").
    /// `FixedFormatTests` hold the bytes to a plain reference's, ties and negatives included.
    private func appendDecimal(_ magnitude: UInt64, negative: Bool, decimals: Int) {
        var rest = magnitude, places = decimals
        while places >= 2, rest % 100 == 0 {
            rest /= 100
            places -= 2
        }
        // At most one trailing zero is left within the places.
        if places > 0, rest % 10 == 0 {
            rest /= 10
            places -= 1
        }
        let digits = max(Self.digitCount(rest), places + 1)
        let length = (negative ? 1 : 0) + digits + (places > 0 ? 1 : 0)
        reserve(length)
        var end = base + count + length
        func pair(_ value: UInt64) {
            let tens = value / 10
            end -= 2
            end.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens), as: UInt8.self)
            (end + 1).storeBytes(
                of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value &- tens &* 10), as: UInt8.self)
        }
        func single(_ value: UInt64) {
            end -= 1
            end.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value), as: UInt8.self)
        }
        if places > 0 {
            var left = places
            while left >= 2 {
                pair(rest % 100)
                rest /= 100
                left -= 2
            }
            if left == 1 {
                single(rest % 10)
                rest /= 10
            }
            end -= 1
            end.storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
        }
        while rest >= 100 {
            pair(rest % 100)
            rest /= 100
        }
        if rest >= 10 { pair(rest) } else { single(rest) }
        if negative { (end - 1).storeBytes(of: UInt8(ascii: "-"), as: UInt8.self) }
        count += length
    }

    /// How many decimal digits `value` has (1 for 0).
    @inline(__always)
    private static func digitCount(_ value: UInt64) -> Int {
        var digits = 1
        var bound: UInt64 = 10
        while digits < 20, value >= bound {
            digits += 1
            bound = bound &* 10
        }
        return digits
    }

    /// Swift's shortest round-trip form; whole numbers below 1e15 as integers; non-finite: null.
    func appendShortest(_ value: Double) {
        if !value.isFinite {
            append("null")
        } else if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else {
            var text = value.description
            text.withUTF8 { append(contentsOf: $0) }
        }
    }

    /// 10^`decimals` (0…9), without an array's lazy global and bounds check.
    @inline(__always)
    private static func scale(_ decimals: Int) -> Double {
        switch decimals {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        default: precondition(decimals == 9, "0…9 decimals"); return 1e9
        }
    }

    /// `value` rounded to `decimals` places (0…9), half away from zero (`Double.rounded()`),
    /// trailing zeros dropped, `-0` written `0`. Past 2⁵³ after scaling (where a Double stops
    /// holding every integer) the shortest form.
    func appendFixed(_ value: Double, decimals: Int) {
        guard value.isFinite else { return append("null") }
        let scaled = value * Self.scale(decimals)
        // Below 2⁵³ the truncation is exact and so is the fraction it leaves, so this rounds as
        // `rounded()` does without a call into libm; at or above, `scaled` is whole already.
        guard abs(scaled) < 9_007_199_254_740_992 else { return appendShortest(value) }
        var units = Int64(scaled)
        // Whole values (a transform's 1 and 0, most sizes) need no scaling back: their digits.
        let whole = Int64(value)
        if Double(whole) == value { return appendInteger(whole) }
        let fraction = scaled - Double(units)
        if fraction >= 0.5 { units += 1 } else if fraction <= -0.5 { units -= 1 }
        if units == 0 { return append(UInt8(ascii: "0")) }
        appendDecimal(units.magnitude, negative: units < 0, decimals: decimals)
    }
}
