import ArgumentParser
import Foundation
import SandboxSession
import SandboxTools
import SandboxWebSockets

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the page and the transition-sandbox.v1 WebSocket protocol.")

    @Option(help: "Address to bind (loopback by default).") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one.") var port = 8080
    @Option(name: .customLong("web-root"), help: "Folder with the page.") var webRoot = "web"
    @Option(help: "Frames per second while a transition completes (\(FrameRate.rangeText)).") var fps = 60
    @Option(name: .customLong("allow-origin"), help: "A browser origin allowed besides the server's own (repeatable).")
    var allowOrigin: [String] = []
    @Option(name: .customLong("allow-host"), help: ArgumentHelp(
        "A Host name allowed besides localhost, IP addresses and --host (repeatable; .example.com allows subdomains).",
        discussion: "Requests naming any other Host are refused with 403: a defence against DNS rebinding."))
    var allowHost: [String] = []
    @Option(name: .customLong("max-connections"), help: "Open WebSocket connections at most (default: sized to the descriptor limit); past it, 503.")
    var maxConnections: Int?
    @Option(name: .customLong("write-timeout"), help: "Seconds a connection's writes may wait for a peer that does not read before it is cut.")
    var writeTimeout = 30.0
    @Option(help: "Service threads; connections are dealt across them (a viewer joins a session on any thread).")
    var threads = 1
    @Option(help: ArgumentHelp(
        "The simulated network of every new connection, one way: delay±jitter in ms, e.g. 60±20 (or 60+-20, 60±20@SEED).",
        discussion: "Both directions are held that long (in order, as TCP delivers); a client may change its own link with configure's network."),
        transform: NetworkConditions.argument)
    var network: NetworkConditions?

    func validate() throws {
        try FrameRate.validate(fps)
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0…65535") }
        guard (1...16).contains(threads) else { throw ValidationError("--threads must be in 1…16") }
        guard writeTimeout >= 0.1, writeTimeout <= 3600 else { throw ValidationError("--write-timeout must be in 0.1…3600 seconds") }
        if let maxConnections, !(1...1_000_000).contains(maxConnections) {
            throw ValidationError("--max-connections must be in 1…1000000")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: webRoot, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--web-root '\(webRoot)' is not a folder")
        }
    }

    func run() throws {
        // Block SIGINT/SIGTERM before any thread starts (threads inherit the mask). libdispatch
        // reads them from a signalfd that its manager thread creates asynchronously, possibly
        // after the ready line below; until then an unblocked signal met SIG_IGN and was lost.
        // Blocked, it stays pending and the signalfd reads it once registered.
        var shutdownSignals = sigset_t()
        sigemptyset(&shutdownSignals)
        sigaddset(&shutdownSignals, SIGINT)
        sigaddset(&shutdownSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &shutdownSignals, nil)
        var options = ServerOptions()
        options.host = host
        options.port = port
        options.webRoot = URL(fileURLWithPath: webRoot).standardizedFileURL.path
        options.fps = fps
        if let network { options.network = network }
        options.allowedOrigins = allowOrigin
        options.allowedHosts = allowHost
        options.limits.maxConnections = maxConnections
        options.limits.writeStallSeconds = writeTimeout
        let group = try ServerGroup(options: options, threads: threads)
        // SIGINT/SIGTERM: every WebSocket closed with 1001, then exit 0. The ready line is one
        // line, flushed at once: scripts and tests wait for it.
        group.run(stopOnSignals: true) {
            FileHandle.standardOutput.write(Data((ReadyLine(host: host, port: group.port, threads: threads).text + "\n").utf8))
        }
        print("Transition Sandbox stopped")
    }
}
