import ArgumentParser
import Dispatch
import Foundation
import SandboxServer

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the page and the transition-sandbox.v1 WebSocket protocol.")

    @Option(help: "Address to bind (loopback by default).") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one.") var port = 8080
    @Option(name: .customLong("web-root"), help: "Folder with the page.") var webRoot = "web"
    @Option(help: "Frames per second while a transition completes (1…240).") var fps = 60
    @Option(name: .customLong("allow-origin"), help: "A browser origin allowed besides the server's own (repeatable).")
    var allowOrigin: [String] = []

    func validate() throws {
        guard (1...240).contains(fps) else { throw ValidationError("--fps must be in 1…240") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0…65535") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: webRoot, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--web-root '\(webRoot)' is not a folder")
        }
    }

    func run() throws {
        var options = ServerOptions()
        options.host = host
        options.port = port
        options.webRoot = URL(fileURLWithPath: webRoot).standardizedFileURL.path
        options.fps = fps
        options.allowedOrigins = allowOrigin
        let server = try SandboxServer(options: options)

        // SIGINT/SIGTERM: close every WebSocket with 1001, then exit 0.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { signal -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { server.requestShutdown() }
            source.resume()
            return source
        }
        // One line, flushed at once: scripts and tests wait for it.
        FileHandle.standardOutput.write(Data("Transition Sandbox listening on http://\(host):\(server.port)/\n".utf8))
        server.run()
        sources.forEach { $0.cancel() }
        print("Transition Sandbox stopped")
    }
}
