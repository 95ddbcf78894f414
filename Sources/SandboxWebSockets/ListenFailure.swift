import CLibWebSockets
import Foundation

/// Why a server could not start, in words a person can act on. libwebsockets only says that
/// the context failed (and logs `(-1 98)`), so when it does the files and the port are checked
/// again here: the certificate and key as OpenSSL loads them, then a socket bound to the address
/// as libwebsockets binds it (`SO_REUSEADDR`). Held by `test_cli_errors.py`:
/// `test_a_port_in_use_is_said_in_words`, `test_swapped_certificate_and_key_are_said_in_words`.
enum ListenFailure {
    static func explain(_ options: ServerOptions) -> String {
        if let cert = options.tlsCertificate, let key = options.tlsKey, let problem = tlsProblem(cert: cert, key: key) {
            return problem
        }
        if options.listens, let problem = portProblem(host: options.host, port: options.port) { return problem }
        return unexplained(options)
    }

    /// The words when nothing more is known: lws' own lines then stay at their level.
    static func unexplained(_ options: ServerOptions) -> String {
        "could not listen on \(options.host):\(options.port)"
    }

    /// What is wrong with the certificate and key, or nil when OpenSSL takes them as a pair.
    static func tlsProblem(cert: String, key: String) -> String? {
        var reason = [CChar](repeating: 0, count: 256)
        let result = clws_tls_check_files(cert, key, &reason, reason.count)
        let said = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let because = said.isEmpty ? "" : " (OpenSSL: \(said))"
        switch result {
        case 0: return nil
        case 1:
            let swapped = holds(cert, "PRIVATE KEY") ? "; it holds a private key: \(Self.swapped)" : ""
            return "--tls-cert \(cert) is not a PEM certificate OpenSSL can load\(because)\(swapped)"
        case 2:
            let swapped = holds(key, "CERTIFICATE") ? "; it holds a certificate: \(Self.swapped)" : ""
            return "--tls-key \(key) is not a PEM private key OpenSSL can load\(because)\(swapped)"
        default:
            return "--tls-key \(key) is not the private key of --tls-cert \(cert)\(because)"
        }
    }

    static let swapped = "are --tls-cert and --tls-key swapped?"

    /// Whether the file's text names a PEM block of this kind (`-----BEGIN … PRIVATE KEY-----`).
    private static func holds(_ path: String, _ kind: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        let text = String(decoding: data.prefix(1 << 20), as: UTF8.self)
        return text.split(separator: "\n").contains { $0.hasPrefix("-----BEGIN ") && $0.contains(kind) }
    }

    /// Why `host:port` cannot be bound now, or nil when it can.
    static func portProblem(host: String, port: Int) -> String? {
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1, (1...65535).contains(port) else { return nil }
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return nil }
        defer { close(probe) }
        var on: Int32 = 1
        setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_port = in_port_t(UInt16(port).bigEndian)
        local.sin_addr = address
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound != 0 else { return nil }
        let error = errno
        switch error {
        case EADDRINUSE:
            return "port \(port) is already in use (EADDRINUSE); choose another with --port (0 picks a free one)"
        case EACCES:
            return "port \(port) needs privileges to bind (EACCES); choose one above 1023 with --port"
        default:
            return "could not bind \(host):\(port) (\(String(cString: strerror(error))), errno \(error))"
        }
    }
}
