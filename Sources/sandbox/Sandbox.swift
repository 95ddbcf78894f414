import ArgumentParser

@main
struct Sandbox: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Transition Sandbox: UIKit's percent-driven interactive transitions, streamed over WebSockets.",
        subcommands: [Serve.self, Pan.self, Latency.self, BenchCommand.self]
    )
}
