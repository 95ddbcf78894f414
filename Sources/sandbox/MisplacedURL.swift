import ArgumentParser
import SandboxWebSockets

/// A server address given where an option's value belongs: `sandbox latency ws://127.0.0.1:8080/`
/// says "did you mean --url ws://127.0.0.1:8080/?" instead of ArgumentParser's "Missing expected
/// argument '--url'" (`test_cli_errors.py`: `test_a_url_without_the_option_is_pointed_to_it`).
enum MisplacedURL {
    static let missing = ValidationError("Missing expected argument '--url <url>'")

    /// Throws the usage error for a positional argument (`given`), or for no `--url` at all.
    static func check(url: WebSocketURL?, given: String?) throws {
        if let given {
            let looksLikeURL = given.hasPrefix("ws://") || given.hasPrefix("wss://")
            guard url == nil, looksLikeURL else { throw ValidationError("Unexpected argument '\(given)'") }
            throw ValidationError("a server is given with --url: did you mean --url \(given)?")
        }
        if url == nil { throw missing }
    }
}
