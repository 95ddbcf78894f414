/// The frame ids of one hub: its thread in the high 16 bits, a count from 1 below, so no two
/// frames of the process share an id (a connection that watches sessions of several threads
/// in turn tells their frames apart) without a process-wide counter. `FrameIDsTests` holds it.
struct FrameIDs: Equatable {
    let thread: UInt64
    private var count: UInt64 = 0

    /// Bits for the count; a thread's 2^48 frames outlast any run (at 1,000 sessions and 240
    /// frames a second, 37 years).
    static let countBits: UInt64 = 48

    init(thread: Int) {
        precondition(thread >= 0 && thread < 1 << 16, "a thread number fits 16 bits")
        self.thread = UInt64(thread)
    }

    mutating func next() -> UInt64 {
        count += 1
        return thread << Self.countBits | count & (1 << Self.countBits - 1)
    }
}
