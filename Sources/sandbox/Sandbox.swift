import ArgumentParser
import SandboxWebSockets

@main
struct Sandbox: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Transition Sandbox: UIKit's percent-driven interactive transitions, streamed over WebSockets.",
        version: "sandbox \(BuildInfo.version) (libwebsockets \(BuildInfo.libwebsocketsVersion))",
        subcommands: [Serve.self, Pan.self, Latency.self, BenchCommand.self]
    )
}
