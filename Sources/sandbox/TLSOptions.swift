import ArgumentParser
import SandboxWebSockets

/// `--ca` and `--insecure` of every tool that connects (`pan`, `latency`, `bench`): how a
/// wss:// server's certificate is checked. Without either, against the system's certificates.
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("ca"),
        help: ArgumentHelp(
            "A PEM file of the certificates to trust for wss:// (a lab server's self-signed one, or its CA).",
            valueName: "file"))
    var caFile: String?
    @Flag(help: "wss:// without checking the server's certificate at all (encrypted, not authenticated: a lab only).")
    var insecure = false

    func validate() throws {
        if caFile != nil, insecure { throw ValidationError("--ca and --insecure: one or the other") }
    }

    var trust: TLSTrust { TLSTrust(caFile: caFile, insecure: insecure) }

    /// The URLs with this trust; a CA file that cannot serve is a data error, said before any
    /// connection (`test_tools_wss.py`: `test_a_missing_ca_file_is_named`).
    func apply(to urls: [WebSocketURL]) throws -> [WebSocketURL] {
        if let caFile, urls.contains(where: \.isSecure), let problem = TLSTrust.problem(caFile) {
            throw DataError(["--ca \(caFile): \(problem)"], code: 64)
        }
        return urls.map { $0.trusting(trust) }
    }
}
