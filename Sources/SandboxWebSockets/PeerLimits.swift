import Glibc
import Synchronization

/// The limits on one client address, for the whole group (every service thread): WebSocket
/// connections open at once (`--max-connections-per-address`) and TLS handshakes started a second
/// (`--handshakes-per-address`). Both are checked at accept, before lws reads a byte or starts a
/// handshake, so a refused socket costs an `accept` and a `close`; the connection count again at
/// the upgrade (503), as sockets accepted together upgrade later.
///
/// `ServerOptions.unlimitedAddresses` (127.0.0.1 by default) are exempt: behind the balancer on
/// this machine every client is 127.0.0.1 (deploy/haproxy.cfg limits per address instead), and
/// on a loopback-bound server so is every user. Held by `test_edge_bounds.py`.
final class PeerLimits: Sendable {
    enum Refusal: String {
        /// The address holds its most WebSocket connections.
        case connections = "per-address"
        /// The address started handshakes faster than its bucket allows.
        case handshakes = "handshake-rate"
    }

    /// Addresses remembered besides those holding connections (`PeerTable`).
    static let tableCapacity = 4096

    let maxConnections: Int?
    let limitsHandshakes: Bool
    private let unlimited: Set<String>
    private let table: Mutex<PeerTable>
    private let clock = ServerClock()

    init(options: ServerOptions) {
        maxConnections = options.maxConnectionsPerAddress
        limitsHandshakes = options.tlsCertificate != nil
        unlimited = options.unlimitedAddresses
        table = Mutex(
            PeerTable(
                capacity: Self.tableCapacity, rate: options.handshakesPerAddress,
                burst: max(1, options.handshakesPerAddress * 2)))
    }

    /// At accept (the listening thread): why `peer` is refused, or nil.
    func admit(_ peer: String) -> Refusal? {
        guard !unlimited.contains(peer) else { return nil }
        let now = clock.now
        return table.withLock { (table: inout PeerTable) -> Refusal? in
            if let maxConnections, table.openConnections(of: peer) >= maxConnections { return .connections }
            if limitsHandshakes && !table.takeHandshake(peer, at: now) { return .handshakes }
            return nil
        }
    }

    /// At the upgrade: false when `peer` already holds its most connections.
    func mayOpen(_ peer: String) -> Bool {
        guard let maxConnections, !unlimited.contains(peer) else { return true }
        return table.withLock { (table: inout PeerTable) in table.openConnections(of: peer) < maxConnections }
    }

    func opened(_ peer: String) {
        guard !unlimited.contains(peer) else { return }
        let now = clock.now
        table.withLock { (table: inout PeerTable) in table.opened(peer, at: now) }
    }

    func closed(_ peer: String) {
        guard !unlimited.contains(peer) else { return }
        let now = clock.now
        table.withLock { (table: inout PeerTable) in table.closed(peer, at: now) }
    }

    /// Addresses remembered now (the table's bound is what the tests check).
    var addresses: Int { table.withLock { (table: inout PeerTable) in table.entries.count } }

    /// The peer address of an accepted socket ("" when the kernel cannot tell), as
    /// `lws_get_peer_simple` writes it for the same socket.
    static func address(of fd: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard got == 0 else { return "" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written: UnsafePointer<CChar>? = withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var bytes = address.pointee.sin_addr
                    return inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var bytes = address.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
                }
            default: return nil
            }
        }
        guard written != nil else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
