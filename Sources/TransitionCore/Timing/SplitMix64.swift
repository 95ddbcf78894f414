/// Steele, Lea and Flood's SplitMix64: a tiny generator whose sequence is fixed by its seed on
/// every platform and Swift version. Written out because the standard library has no seeded
/// generator, and `Double.random(in:using:)` does not promise the same doubles from the same
/// bits across releases: a simulated network must replay bit-identically (`DelayLine`), and the
/// tests' random inputs must repeat. The one copy: the session module and the tests use it.
public struct SplitMix64 {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), from the top 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
