import ArgumentParser
import SandboxWebSockets

extension WebSocketURL {
    /// Parses a `ws://HOST:PORT/` or `wss://HOST:PORT/` option once, for every command that
    /// takes one: `@Option(transform: WebSocketURL.argument) var url: WebSocketURL`. A bad value
    /// is a usage error (exit 64) naming the option and the expected form.
    @Sendable static func argument(_ text: String) throws -> WebSocketURL {
        guard let url = WebSocketURL(text) else {
            throw ValidationError("must look like ws://HOST:PORT/ or wss://HOST:PORT/ (PORT 1…65535)")
        }
        return url
    }
}
