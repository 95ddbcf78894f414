import Foundation
import Testing

@testable import SandboxWebSockets

/// The tools' server address: ws:// or wss://, HOST:PORT, a path; and the checks of a CA file
/// made before libwebsockets loads it.
@Suite("WebSocketURL")
struct WebSocketURLTests {
    @Test("ws:// and wss:// parse; anything else is refused")
    func parses() throws {
        let plain = try #require(WebSocketURL("ws://127.0.0.1:8080/"))
        #expect(!plain.isSecure && plain.host == "127.0.0.1" && plain.port == 8080 && plain.path == "/")
        let secure = try #require(WebSocketURL("wss://localhost:8443/x?y"))
        #expect(secure.isSecure && secure.host == "localhost" && secure.port == 8443 && secure.path == "/x?y")
        #expect(secure.description == "wss://localhost:8443/x?y")
        #expect(WebSocketURL("wss://localhost:8443")?.path == "/")
        let refused = [
            "http://a:1/", "wss:/a:1/", "wsss://a:1/", "wss://a/", "wss://:1/", "ws://a:0/", "ws://a:65536/", "",
        ]
        for text in refused {
            #expect(WebSocketURL(text) == nil, "\(text)")
        }
    }

    @Test("a CA file that cannot serve is named before any connection")
    func caFileProblems() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(TLSTrust.problem(folder.path + "/none.pem") == "no such file")
        #expect(TLSTrust.problem(folder.path) == "is a folder, not a PEM file")
        let key = folder.appendingPathComponent("key.pem").path
        #expect(FileManager.default.createFile(atPath: key, contents: Data("-----BEGIN PRIVATE KEY-----\n".utf8)))
        #expect(TLSTrust.problem(key) == "holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        let cert = folder.appendingPathComponent("cert.pem").path
        #expect(FileManager.default.createFile(atPath: cert, contents: Data("-----BEGIN CERTIFICATE-----\n".utf8)))
        #expect(TLSTrust.problem(cert) == nil)
        let url = try #require(WebSocketURL("wss://localhost:1/")).trusting(TLSTrust(caFile: folder.path))
        #expect(throws: ClientLoop.StartError.self) { try ClientLoop(for: url) }
    }

    @Test("a refused certificate is explained with what to do; other failures are passed on as they are")
    func explains() throws {
        let url = try #require(WebSocketURL("wss://localhost:1/"))
        let refused = TLSTrust.explain(
            "server's cert didn't look good, X509_V_ERR = 18: error:00000012:lib(0)::reason(18)", url: url)
        // OpenSSL's words for verify error 18 (libwebsockets prints another string there).
        #expect(refused.hasPrefix("the server's TLS certificate is not trusted (X509_V_ERR 18: self"), "\(refused)")
        #expect(refused.contains("--ca FILE") && refused.contains("--insecure"))
        #expect(TLSTrust.explain("connection refused", url: url) == "connection refused")
    }
}
