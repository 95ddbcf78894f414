/// The process-wide byte budget: one bound over everything the server holds for its clients on
/// every service thread — reply queues, what the simulated network holds each way, and the
/// kernel's send queues as far as the server sees them (twice `SIOCOUTQ`: the kernel's own
/// accounting, as the room check takes it). Each connection's bounds keep one client small; this
/// keeps many of them from adding up to the host's memory (docs/SECURITY.md, "Kernel memory and
/// the byte budget").
///
/// Pure: the executor keeps the count (an atomic shared by the threads) and asks for the verdict,
/// which the hub (`admitsNewLinks`) and each `Outbox` (`overBudget`) are handed, like `Room`.
public struct ProcessBudget: Sendable, Equatable {
    public enum Verdict: Equatable, Sendable {
        case within
        /// Past the soft mark: new `network` links are refused (`over-budget`); nothing is cut.
        case refuseLinks
        /// Past the hard mark: the largest holders are cut (1008) until the count is back
        /// under the soft mark.
        case shed
    }

    /// The hard mark, in bytes.
    public var bytes: Int
    /// 256 MiB: a thousand clients at 256 KiB each, the reply queue's own bound; a client in
    /// ordinary play holds a few KiB (a frame or two in its kernel queue).
    public static let defaultBytes = 256 * 1024 * 1024

    public init(bytes: Int = ProcessBudget.defaultBytes) {
        self.bytes = bytes
    }

    /// Three quarters of the hard mark: where links are refused, and where shedding stops.
    public var softBytes: Int { bytes / 4 * 3 }

    /// The verdict for `held` bytes (`OutboxBudgetTests.verdictsByMark`).
    public func verdict(held: Int) -> Verdict {
        if held > bytes { return .shed }
        if held > softBytes { return .refuseLinks }
        return .within
    }
}
