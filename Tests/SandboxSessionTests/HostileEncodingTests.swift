import Testing

@testable import SandboxSession

/// Hostile inputs to the frame path's unsafe formatting (review of the per-frame encoder):
/// values at the edges of `appendFixed`'s integer path, integers at the edges of
/// `appendInteger`'s short path, and copies into a buffer that must grow at every offset. Run
/// under `--sanitize=address` these also check that no byte is written or read outside.
struct HostileEncodingTests {
    static var edgeValues: [Double] {
        var values: [Double] = [
            0, -0.0, .nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e308, -1e308,
            1e15, 1e15 - 1, 1e15 + 1, -1e15, 999_999_999_999_999.5, 0.5, -0.5, 1.5, -1.5,
            0.49999999999999994, -0.49999999999999994, 9_223_372_036_854_775_807, -9_223_372_036_854_775_808,
            Double(Int64.max), Double(Int64.min), 0.1, 0.2, 0.3, 1.0 / 3, -2.0 / 3, 123.456, 999.9999999995,
            -999.9999999995, 9.9999999995, 0.0000000005, -0.0000000005, 0.000000000499999, 5e-324,
        ]
        for k in 50...54 {
            let p = Double(sign: .plus, exponent: k, significand: 1)
            values += [p, p - 1, p + 2, -p, -(p - 1), p.nextDown, p.nextUp, p / 2 + 0.5, -(p / 2 + 0.5)]
            for d in 0...9 {
                var power = 1.0
                for _ in 0..<d { power *= 10 }
                // Just below, at and past 2⁵³ after scaling by 10^d.
                for q in [p / power, (p / power).nextDown, (p / power).nextUp, -(p / power), (p - 0.5) / power] {
                    values += [q, q.nextDown, q.nextUp]
                }
            }
        }
        for e in -330...310 { values += [Double("1e\(e)") ?? 0, -(Double("9.5e\(e)") ?? 0)] }
        return values
    }

    @Test(arguments: 0...9)
    func edgesMatchTheReference(_ decimals: Int) {
        var failures = 0
        for value in Self.edgeValues {
            let got = FixedFormatTests.formatted(value, decimals)
            let expected = FixedFormatTests.reference(value, decimals)
            if got != expected, failures < 10 {
                failures += 1
                Issue.record("\(value) at \(decimals): \(got), expected \(expected)")
            }
        }
    }

    /// Every decimals count, many values in one buffer: the buffer grows between and inside
    /// numbers (ASan checks each write), and the bytes equal the values formatted one by one.
    @Test func manyNumbersIntoAGrowingBuffer() {
        let buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        for decimals in 0...9 {
            for value in Self.edgeValues {
                buffer.appendFixed(value, decimals: decimals)
                expected += Array(FixedFormatTests.reference(value, decimals).utf8)
            }
        }
        for value: Int64 in [0, 9, 10, 99, 100, 999, 1_000, -999, -1_000, Int64.min, Int64.max, Int64.min + 1] {
            buffer.appendInteger(value)
            expected += Array(String(value).utf8)
        }
        #expect(Array(UnsafeRawBufferPointer(start: buffer.base, count: buffer.count)) == expected)
    }

    @Test func everySmallInteger() {
        for value in Int64(-1_100)...1_100 {
            let buffer = ByteBuffer(capacity: 1)
            buffer.count = 61  // 3 bytes short of the capacity: the short path must reserve.
            buffer.appendInteger(value)
            let text = String(
                decoding: UnsafeRawBufferPointer(start: buffer.base + 61, count: buffer.count - 61), as: UTF8.self)
            #expect(text == String(value))
        }
    }

    /// Copies of 0–40 bytes at every offset near a full buffer's end.
    @Test func copiesAtEveryOffsetNearTheEnd() {
        let source = (0..<64).map { UInt8($0 + 1) }
        for length in 0...40 {
            for used in 40...64 {
                let buffer = ByteBuffer(capacity: 64)
                buffer.count = used
                source.withUnsafeBytes { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
                #expect(buffer.count == used + length)
                #expect(
                    Array(UnsafeRawBufferPointer(start: buffer.base + used, count: length)) == Array(source[0..<length])
                )
            }
        }
    }

    /// Uniform over bit patterns (subnormals, huge values, NaNs with payloads), and values a few
    /// ulps from a tie at each precision.
    @Test(arguments: 0...9)
    func bitPatternsAndNearTies(_ decimals: Int) {
        var random = FixedFormatTests.SplitMix(state: 0xBAD5EED &+ UInt64(decimals))
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        var failures = 0
        for index in 0..<40_000 {
            var value: Double
            if index % 2 == 0 {
                value = Double(bitPattern: random.next())
            } else {
                let tie = (Double(Int64.random(in: -9_000_000_000...9_000_000_000, using: &random)) + 0.5) / power
                value = tie
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    value = Bool.random(using: &random) ? value.nextUp : value.nextDown
                }
            }
            let got = FixedFormatTests.formatted(value, decimals)
            let expected = FixedFormatTests.reference(value, decimals)
            if got != expected, failures < 10 {
                failures += 1
                Issue.record("\(value) (\(value.bitPattern)) at \(decimals): \(got), expected \(expected)")
            }
        }
    }
}
