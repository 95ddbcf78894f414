import CLibWebSockets
import Foundation

/// How a wss:// client trusts its server: the certificates of a CA file (`--ca`; without it
/// the system's bundle), or nothing at all (`--insecure`: any certificate, for a lab server's
/// self-signed one — the traffic is encrypted, the server not authenticated).
public struct TLSTrust: Sendable, Equatable {
    public var caFile: String?
    public var insecure: Bool

    public init(caFile: String? = nil, insecure: Bool = false) {
        self.caFile = caFile
        self.insecure = insecure
    }

    /// Where OpenSSL's own default bundle lives on Debian and Fedora-like systems: what a
    /// wss:// client without `--ca` trusts. libwebsockets 4.1 does not load the system's store
    /// by itself.
    static let systemBundles = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"]

    /// The PEM file the client context loads: `caFile`, checked (a missing file, a folder, an
    /// unreadable file or one with no certificate is named here, before libwebsockets fails on
    /// it without a word), else the system's bundle if there is one.
    func caFileToLoad() throws(ClientLoop.StartError) -> String? {
        guard let caFile else { return Self.systemBundles.first { FileManager.default.isReadableFile(atPath: $0) } }
        if let problem = Self.problem(caFile) {
            throw ClientLoop.StartError(description: "--ca \(caFile): \(problem)")
        }
        return caFile
    }

    /// Why `path` cannot be a CA file, or nil.
    public static func problem(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "no such file" }
        if isFolder.boolValue { return "is a folder, not a PEM file" }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot be read (permission denied)" }
        defer { try? handle.close() }
        // A CA file is a few certificates; 4 MiB holds the system's whole bundle twice over.
        let data = (try? handle.read(upToCount: 4 << 20)) ?? Data()
        guard String(decoding: data, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            return "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        }
        return nil
    }

    /// A failed wss:// connection in words a person can act on: libwebsockets' reason (which,
    /// for a refused certificate, carries OpenSSL's verify error) and what to do about it.
    /// Held by `test_tools_wss.py`: `test_a_wrong_ca_names_the_certificate_problem`.
    public static func explain(_ said: String, url: WebSocketURL) -> String {
        let text = verifyError(in: said) ?? said.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = text.lowercased()
        let certificate = ["cert", "x509", "verify", "self signed", "self-signed", "issuer", "hostname"]
        guard certificate.contains(where: lower.contains) else { return text }
        let trusted = url.trust.caFile.map { "the certificates of \($0)" } ?? "the system's certificates"
        return "the server's TLS certificate is not trusted (\(text)); checked against \(trusted): "
            + "give its issuer with --ca FILE, or --insecure to skip the check (a lab server only)"
    }

    /// OpenSSL's X509_V_ERR_HOSTNAME_MISMATCH and X509_V_ERR_IP_ADDRESS_MISMATCH.
    static let hostnameMismatch = 62
    static let addressMismatch = 64

    /// A certificate that is trusted but names other hosts: no other CA or --insecure helps, the
    /// name does (`test_tools_wss.py`: `test_a_name_mismatch_names_the_certificate_names`).
    static func mismatch(names: String, url: WebSocketURL) -> String {
        guard let first = names.split(separator: ",").first.map(String.init) else {
            return "the server's TLS certificate names no host (no subjectAltName): make one that names \(url.host)"
        }
        let host = first.contains(":") ? "[\(first)]" : first
        return "the certificate is for \(names) (its subjectAltName); "
            + "connect to wss://\(host):\(url.port)\(url.path) or make a certificate that names \(url.host)"
    }

    /// libwebsockets 4.1 reports a refused certificate as "server's cert didn't look good,
    /// X509_V_ERR = N: …", the "…" being `ERR_error_string` of N, which is no ERR code: the
    /// words for N are OpenSSL's `X509_verify_cert_error_string`.
    static func verifyError(in said: String) -> String? {
        if said.hasPrefix("X509_V_ERR ") { return said }  // the socket's own record, in words already
        guard let marker = said.range(of: "X509_V_ERR = ") else { return nil }
        let digits = said[marker.upperBound...].prefix { $0.isNumber }
        guard let code = Int(digits), (0...1_000).contains(code) else { return nil }
        return "X509_V_ERR \(code): \(String(cString: X509_verify_cert_error_string(code)))"
    }
}
