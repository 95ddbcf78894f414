import Foundation
import Synchronization

/// Whether a server that refused a connection speaks the other scheme: `wss://` to a plain
/// server (OpenSSL says only "connect SSL err 1"), `ws://` to a TLS one (lws says "read
/// failed"). One short blocking look (a second at most) per address, only after a failure,
/// remembered for the process: a tool with a thousand connections to the wrong scheme looks
/// once. Held by `test_tools_wss.py`: `test_the_wrong_scheme_is_named`.
enum SchemeProbe {
    private static let seen = Mutex<[String: String?]>([:])

    /// The sentence that says which scheme to use, or nil when the server speaks `url`'s own.
    static func mismatch(_ url: WebSocketURL) -> String? {
        let key = url.description
        if let known = seen.withLock({ $0[key] }) { return known }
        let said = look(url)
        seen.withLock { $0[key] = said }
        return said
    }

    private static func look(_ url: WebSocketURL) -> String? {
        let other = "\(url.isSecure ? "ws" : "wss")://\(url.host):\(url.port)\(url.path)"
        if url.isSecure {
            let request = "GET / HTTP/1.1\r\nHost: \(url.host)\r\nConnection: close\r\n\r\n"
            guard let reply = exchange(url, Array(request.utf8)), reply.starts(with: Array("HTTP/".utf8)) else {
                return nil
            }
            return "the server at \(url.host):\(url.port) does not speak TLS: use \(other)"
        }
        // A TLS 1.2 ClientHello (two ECDHE suites, no extensions): a TLS server answers with a
        // record, a handshake (22) or an alert (21); an HTTP server with text or nothing.
        let body: [UInt8] = [3, 3] + [UInt8](repeating: 0, count: 32) + [0, 0, 4, 0xC0, 0x2B, 0xC0, 0x2F, 1, 0]
        let hello: [UInt8] = [22, 3, 1, 0, UInt8(body.count + 4), 1, 0, 0, UInt8(body.count)] + body
        guard let reply = exchange(url, hello), let first = reply.first, first == 21 || first == 22,
            reply.count >= 2, reply[1] == 3
        else { return nil }
        return "the server at \(url.host):\(url.port) speaks TLS: use \(other)"
    }

    /// Sends `bytes` over a new TCP connection and returns the first bytes of the reply (nil: no
    /// connection or no reply within a second).
    private static func exchange(_ url: WebSocketURL, _ bytes: [UInt8]) -> [UInt8]? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(url.host, String(url.port), &hints, &found) == 0, let address = found else { return nil }
        defer { freeaddrinfo(found) }
        let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var second = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &second, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &second, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
            send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
        else { return nil }
        var reply = [UInt8](repeating: 0, count: 8)
        let count = recv(fd, &reply, reply.count, 0)
        return count > 0 ? Array(reply.prefix(count)) : nil
    }
}
