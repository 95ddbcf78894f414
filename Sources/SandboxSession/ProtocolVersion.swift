/// The wire protocol a connection speaks, chosen by WebSocket subprotocol at the handshake
/// (docs/PROTOCOL.md, "Versions"). The two differ only in frames: protocol 1 sends every frame
/// whole, with `t` (the same number as `sent`); protocol 2 sends deltas and no `t`. Every other
/// message is the same in both.
public enum ProtocolVersion: Int, Sendable, CaseIterable {
    case v1 = 1
    case v2 = 2

    /// The subprotocol name a client offers for it.
    public var subprotocol: String {
        switch self {
        case .v1: return "transition-sandbox.v1"
        case .v2: return "transition-sandbox.v2"
        }
    }

    /// What the server answers a client that offers `offered` (the `Sec-WebSocket-Protocol`
    /// header, comma-separated; nil when absent).
    public enum Negotiation: Equatable, Sendable {
        case serve(ProtocolVersion)
        /// The client offered names and none is ours: the upgrade is refused.
        case unsupported
    }

    /// The newest version the client offers, wherever it lists it (`ProtocolVersionTests`); no
    /// header gets protocol 1: a client that names no version was written before versions were
    /// named, and protocol 1's whole frames need no assembler. A header that names none of ours,
    /// or that libwebsockets could not read (a list of `maxOfferedBytes` or more, a name of
    /// `maxNameBytes` or more: it would close the connection without a word) is `unsupported`.
    public static func negotiate(_ offered: String?) -> Negotiation {
        guard let offered else { return .serve(.v1) }
        guard offered.utf8.count < maxOfferedBytes else { return .unsupported }
        let names = offered.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: " \t")
        }
        // What libwebsockets cannot read either: an empty name (`a,,b`), one not an RFC 6455 token.
        guard names.allSatisfy({ !$0.isEmpty && $0.utf8.count < maxNameBytes && $0.utf8.allSatisfy(isToken) })
        else { return .unsupported }
        let known = allCases.filter { names.contains(Substring($0.subprotocol)) }
        guard let newest = known.max(by: { $0.rawValue < $1.rawValue }) else { return .unsupported }
        return .serve(newest)
    }

    /// A character of an HTTP token (RFC 6455 subprotocol names are tokens, RFC 7230 §3.2.6):
    /// visible ASCII but separators.
    static func isToken(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !#"()<>@,;:"/[]?={}"#.utf8.contains(byte)
    }

    /// libwebsockets 4.1 reads the offered list into 128 bytes (with its terminator), and each
    /// name into 64.
    public static let maxOfferedBytes = 127
    public static let maxNameBytes = 64

    /// The version a subprotocol name stands for (nil: not ours).
    public init?(subprotocol name: String) {
        guard let version = Self.allCases.first(where: { $0.subprotocol == name }) else { return nil }
        self = version
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var part = self
        while let first = part.first, set.contains(first) { part = part.dropFirst() }
        while let last = part.last, set.contains(last) { part = part.dropLast() }
        return part
    }
}
