/// Who may talk to the server over HTTP and WebSocket: the `Host` allow-list that defeats DNS
/// rebinding, and the `Origin` rule that keeps other sites' pages out.
///
/// A page on a rebinding domain (`evil.example` resolving to 127.0.0.1) is same-origin with
/// itself, so Origin alone lets it in; its requests still carry `Host: evil.example`, which is
/// what gives it away. Allowed hosts, as dev servers do (Vite's `server.allowedHosts`):
/// `localhost` and `*.localhost`, any IP address literal (a browser sends one only when the user
/// typed the address, never for a domain), the bound address, and the `--allow-host` names
/// (a leading dot allows the name and its subdomains).
public struct RequestPolicy: Sendable, Equatable {
    public var boundHost: String
    public var allowedHosts: [String]
    public var allowedOrigins: [String]
    /// Served over TLS: the server's own origin is `https://host`, never `http://host` (a page
    /// served in plain text elsewhere under the same name is another origin).
    public var secure: Bool

    public init(boundHost: String, allowedHosts: [String] = [], allowedOrigins: [String] = [], secure: Bool = false) {
        self.boundHost = boundHost
        self.allowedHosts = allowedHosts
        self.allowedOrigins = allowedOrigins
        self.secure = secure
    }

    /// `header`: the request's `Host`, nil when absent (refused: HTTP/1.1 requires it).
    public func acceptsHost(_ header: String?) -> Bool {
        guard let header, let name = Self.hostName(header) else { return false }
        if name == "localhost" || name.hasSuffix(".localhost") || Self.isAddressLiteral(name) { return true }
        if name == boundHost.lowercased() { return true }
        return allowedHosts.contains { allowed in
            let allowed = allowed.lowercased()
            if allowed.hasPrefix(".") { return name == allowed.dropFirst() || name.hasSuffix(allowed) }
            return name == allowed
        }
    }

    /// `origin`: the request's `Origin`, nil when absent (scripts send none and are accepted).
    /// A browser page is accepted from the server's own origin or an `--allow-origin` one.
    public func acceptsOrigin(_ origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        if allowedOrigins.contains(origin) { return true }
        guard let host else { return false }
        return origin == "\(secure ? "https" : "http")://\(host)"
    }

    /// The host name of a `Host` header, lowercased, without port or trailing dot; nil if malformed.
    static func hostName(_ header: String) -> String? {
        var text = Substring(header.lowercased())
        guard !text.isEmpty, text.utf8.count <= 255, !text.contains(where: { $0 == " " || $0 == "/" || $0 == "@" })
        else {
            return nil
        }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && isPort(rest.dropFirst())) else { return nil }
            return String(text[...close])
        }
        if let colon = text.lastIndex(of: ":") {
            guard isPort(text[text.index(after: colon)...]) else { return nil }
            text = text[..<colon]
        }
        if text.hasSuffix(".") { text = text.dropLast() }
        return text.isEmpty ? nil : String(text)
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber)
    }

    /// A dotted-quad IPv4 address or a bracketed IPv6 one.
    static func isAddressLiteral(_ name: String) -> Bool {
        if name.hasPrefix("[") && name.hasSuffix("]") {
            let inner = name.dropFirst().dropLast()
            return inner.contains(":") && inner.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part)! <= 255
            }
    }
}
