import Logging

// The per-address limits at accept (`PeerLimits`): a socket refused here is closed before lws
// reads a byte of it or starts a TLS handshake.

extension SandboxServer {
    /// LWS_CALLBACK_FILTER_NETWORK_CONNECTION (listening thread): true when `fd`'s address is
    /// past a per-address limit; the refusal is counted (`sandbox_refused_total{why}`) and logged
    /// within the log budget ("connection refused", with the peer and why).
    func refusedAtAccept(_ fd: Int32) -> Bool {
        let peer = PeerLimits.address(of: fd)
        guard let refusal = group.peers.admit(peer) else { return false }
        metrics?.refused(refusal.rawValue)
        guard logger.logLevel <= .info, LogBudget.shared.admit(peer: peer, reason: refusal.rawValue) else {
            return true
        }
        let limit: String =
            switch refusal {
            case .connections:
                "\(group.peers.maxConnections ?? 0) open connections per address (--max-connections-per-address)"
            case .handshakes:
                "\(options.handshakesPerAddress) TLS handshakes a second per address (--handshakes-per-address)"
            }
        logger.info(
            "connection refused",
            metadata: ["peer": .string(peer), "why": .string(refusal.rawValue), "limit": .string(limit)])
        return true
    }
}
