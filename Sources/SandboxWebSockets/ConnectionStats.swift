/// What the log line of a closing connection reports, and what it adds to the metrics: when it
/// opened, who the peer is, bytes each way, and how it ended. Kept apart from `Connection` so the
/// transport's logic stays what it was; the connection only adds to it.
struct ConnectionStats {
    /// The peer's address as libwebsockets reports it (behind HAProxy: the balancer's).
    let peer: String
    /// Server clock, seconds.
    let openedAt: Double
    var bytesIn = 0
    var bytesOut = 0
    var framesOut = 0
    /// The close code sent or received; nil until one is (then 1006: no close frame).
    private(set) var closeCode: Int?
    /// Who closed first: "server", "client", or nil (the socket went away without a close frame).
    private(set) var closedBy: String?

    init(peer: String, openedAt: Double) {
        self.peer = peer
        self.openedAt = openedAt
    }

    /// The server decided to close (or cut) with `code`; the first decision is the one reported.
    mutating func serverCloses(_ code: Int) {
        guard closeCode == nil else { return }
        closeCode = code
        closedBy = "server"
    }

    /// The peer's close frame (-1 when it carried no code: RFC 6455's 1005).
    mutating func clientCloses(_ code: Int) {
        guard closeCode == nil else { return }
        closeCode = code < 0 ? 1005 : code
        closedBy = "client"
    }

    /// The code for logs and metrics: 1006 when neither side sent a close frame.
    var reportedCloseCode: Int { closeCode ?? 1006 }
}
