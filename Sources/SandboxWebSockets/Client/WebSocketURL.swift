/// `ws://host:port/path` or `wss://host:port/path`, parsed strictly (the tools take it from the
/// command line), with the trust a wss:// connection verifies its server by.
public struct WebSocketURL: CustomStringConvertible, Sendable, Equatable {
    /// wss://: TLS (`ClientLoop(for:)` makes a loop with `trust`).
    public let isSecure: Bool
    public let host: String
    public let port: Int
    public let path: String
    /// How a wss:// server's certificate is checked (`--ca`, `--insecure`); unused for ws://.
    public var trust = TLSTrust()

    public init?(_ text: String) {
        let scheme = text.prefix { $0 != ":" }
        guard scheme == "ws" || scheme == "wss", text.dropFirst(scheme.count).hasPrefix("://") else { return nil }
        isSecure = scheme == "wss"
        let rest = text.dropFirst(scheme.count + 3)
        let hostPort = rest.prefix { $0 != "/" }
        path = rest.count > hostPort.count ? String(rest.dropFirst(hostPort.count)) : "/"
        guard let colon = hostPort.lastIndex(of: ":"), colon != hostPort.startIndex,
            let port = Int(hostPort[hostPort.index(after: colon)...]), (1...65535).contains(port)
        else { return nil }
        host = String(hostPort[..<colon])
        self.port = port
    }

    /// The same server with another trust.
    public func trusting(_ trust: TLSTrust) -> WebSocketURL {
        var url = self
        url.trust = trust
        return url
    }

    public var description: String { "\(isSecure ? "wss" : "ws")://\(host):\(port)\(path)" }
}
