/// Numbers, written in place (no `String` but for the shortest form's rare fallbacks).
extension ByteBuffer {
    func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Decimal digits of a whole number.
    func appendInteger(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumDigits: 1)
    }

    /// `value`'s digits, left-padded with zeros to `minimumDigits` (≤ 20), written in place.
    private func appendDigits(_ value: UInt64, minimumDigits: Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        digits = max(digits, minimumDigits)
        reserve(digits)
        var magnitude = value
        var offset = count + digits
        while offset > count {
            offset -= 1
            base.storeBytes(
                of: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10), toByteOffset: offset, as: UInt8.self)
            magnitude /= 10
        }
        count += digits
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

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// `value` rounded to `decimals` places (0…9), trailing zeros dropped, `-0` written `0`.
    /// Past 2⁵³ after scaling (where a Double stops holding every integer) the shortest form.
    func appendFixed(_ value: Double, decimals: Int) {
        guard value.isFinite else { return append("null") }
        let scaled = (value * Self.powersOfTen[decimals]).rounded()
        guard abs(scaled) < 9_007_199_254_740_992 else { return appendShortest(value) }
        let units = Int64(scaled)
        if units == 0 { return append(UInt8(ascii: "0")) }
        if units < 0 { append(UInt8(ascii: "-")) }
        let divisor = UInt64(Self.powersOfTen[decimals])
        appendDigits(units.magnitude / divisor, minimumDigits: 1)
        var fraction = units.magnitude % divisor
        guard fraction != 0 else { return }
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        append(UInt8(ascii: "."))
        appendDigits(fraction, minimumDigits: digits)
    }
}
