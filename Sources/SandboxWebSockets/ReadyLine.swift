/// The line `sandbox serve` prints once it listens, and that scripts, tests and `sandbox bench`
/// wait for: `Transition Sandbox listening on http://HOST:PORT/` (`https://` with TLS), then
/// ` (N service threads)` when N > 1.
public struct ReadyLine: Equatable, Sendable {
    public var host: String
    public var port: Int
    public var threads: Int
    /// Served over TLS (`serve --tls-cert`): https and wss.
    public var secure: Bool

    public init(host: String, port: Int, threads: Int = 1, secure: Bool = false) {
        self.host = host
        self.port = port
        self.threads = threads
        self.secure = secure
    }

    private static let prefix = "Transition Sandbox listening on http://"
    private static let securePrefix = "Transition Sandbox listening on https://"
    private static let threadsPrefix = " (", threadsSuffix = " service threads)"

    /// The line, without its newline.
    public var text: String {
        let note = threads > 1 ? "\(Self.threadsPrefix)\(threads)\(Self.threadsSuffix)" : ""
        return "\(secure ? Self.securePrefix : Self.prefix)\(host):\(port)/\(note)"
    }

    /// Reads a line `text` wrote (a trailing newline is ignored); nil for anything else.
    public init?(parsing line: some StringProtocol) {
        var line = Substring(line)
        while line.last == "\n" || line.last == "\r" { line = line.dropLast() }
        let secure = line.hasPrefix(Self.securePrefix)
        guard secure || line.hasPrefix(Self.prefix) else { return nil }
        let rest = line.dropFirst(secure ? Self.securePrefix.count : Self.prefix.count)
        guard let slash = rest.firstIndex(of: "/"), let colon = rest[..<slash].lastIndex(of: ":"),
            colon != rest.startIndex, let port = Int(rest[rest.index(after: colon)..<slash]), (1...65535).contains(port)
        else { return nil }
        var threads = 1
        let note = rest[rest.index(after: slash)...]
        if !note.isEmpty {
            guard note.hasPrefix(Self.threadsPrefix), note.hasSuffix(Self.threadsSuffix),
                let count = Int(note.dropFirst(Self.threadsPrefix.count).dropLast(Self.threadsSuffix.count)), count > 1
            else { return nil }
            threads = count
        }
        self.init(host: String(rest[..<colon]), port: port, threads: threads, secure: secure)
    }
}
