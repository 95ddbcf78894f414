import Testing

@testable import SandboxWebSockets

/// The Host allow-list (DNS rebinding) and the Origin rule, without a socket.
@Suite struct RequestPolicyTests {
    let policy = RequestPolicy(
        boundHost: "127.0.0.1", allowedHosts: ["sandbox.test", ".lab.example"],
        allowedOrigins: ["http://tools.test:9000"])

    @Test(arguments: [
        "localhost", "localhost:8080", "app.localhost:1", "127.0.0.1:8080", "[::1]:8080", "10.0.0.7", "LOCALHOST.",
        "sandbox.test:80", "lab.example", "a.b.lab.example:1",
    ])
    func allowedHosts(_ host: String) {
        #expect(policy.acceptsHost(host))
    }

    @Test(arguments: [
        "evil.example:8080", "localhost.evil.example", "sandbox.test.evil", "xlab.example", "", "\u{0}",
        "localhost:abc", "1.2.3.4.5",
    ])
    func refusedHosts(_ host: String) {
        #expect(!policy.acceptsHost(host))
    }

    @Test func absentHostIsRefused() {
        #expect(!policy.acceptsHost(nil))
    }

    @Test func origins() {
        #expect(policy.acceptsOrigin(nil, host: "127.0.0.1:8080"))  // scripts send none
        #expect(policy.acceptsOrigin("http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(policy.acceptsOrigin("http://tools.test:9000", host: "127.0.0.1:8080"))
        #expect(!policy.acceptsOrigin("http://evil.example:8080", host: "127.0.0.1:8080"))
        #expect(!policy.acceptsOrigin("\u{0}", host: "127.0.0.1:8080"))  // too long to read: not absent
    }

    @Test func overTLSTheOwnOriginIsHTTPS() {
        let secure = RequestPolicy(boundHost: "127.0.0.1", secure: true)
        #expect(secure.acceptsOrigin("https://lab.example:8443", host: "lab.example:8443"))
        #expect(!secure.acceptsOrigin("http://lab.example:8443", host: "lab.example:8443"))
        #expect(!policy.acceptsOrigin("https://127.0.0.1:8080", host: "127.0.0.1:8080"))
    }
}
