import Glibc
import SandboxSession

extension ConnectionLimits {
    /// The descriptor number from which an accepted socket is refused on the spot: the limit less
    /// a reserve (5 %, at least 32) for the page's files, hand-off duplicates and the sockets
    /// already being served, so that accept() itself never fails.
    public static var descriptorCeiling: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_000 }
        let descriptors = Int(clamping: min(limit.rlim_cur, 1 << 20))
        return max(16, descriptors - max(32, descriptors / 20))
    }

    /// The descriptor limit less a reserve for listening sockets, HTTP requests, the page's files
    /// and the hand-off duplicates of `--threads`.
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_000 }
        let descriptors = Int(clamping: min(limit.rlim_cur, 1 << 20))
        return max(16, descriptors * 9 / 10 - 64)
    }
}
