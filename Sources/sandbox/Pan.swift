import ArgumentParser
import Foundation
import SandboxSession
import SandboxTools
import SandboxWebSockets

struct Pan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay pan scripts (docs/SCRIPTS.md) in-process or against a running server.",
        discussion: """
            With --local (the default) a script runs in-process on a virtual clock: instant, and the \
            same script always gives the same frames. With --url it runs in real time over a WebSocket. \
            Give both to run each script both ways and check that they agree. Exits 1 when an \
            expectation fails or the two ways disagree.
            """)

    @Argument(help: "Pan script files (JSON).") var scripts: [String]
    @Option(help: "Replay against this server, e.g. ws://127.0.0.1:8080/.", transform: WebSocketURL.argument)
    var url: WebSocketURL?
    @Flag(help: "Replay in-process on a virtual clock (the default without --url).") var local = false
    @Option(help: "Write the frames as JSON lines: a file for one script run one way, else a folder.")
    var trace: String?
    @Flag(help: "Print the reports as JSON.") var json = false
    @Option(help: "The server's default frame rate for --local (sandbox serve --fps).") var fps = 60
    @Option(
        help: ArgumentHelp(
            "A simulated network, one way: delay±jitter in ms, e.g. 150±60 (or 150+-60, 150±60@SEED).",
            discussion:
                "Applies to the --url replay (asked of the server for its connection) and to a --local replay run alone. With both, the local replay stays the loopback reference: the check is that the decisions do not depend on the network."
        ),
        transform: NetworkConditions.argument)
    var network: NetworkConditions?

    func validate() throws {
        try FrameRate.validate(fps)
    }

    func run() throws {
        let runLocal = local || url == nil
        var loaded: [PanScript] = []
        for path in scripts {
            do {
                loaded.append(try PanScript.load(path: path))
            } catch {
                throw ValidationError(error.description)
            }
        }
        let traceIsFolder = trace != nil && (loaded.count > 1 || (runLocal && url != nil))
        if let trace, traceIsFolder {
            try FileManager.default.createDirectory(atPath: trace, withIntermediateDirectories: true)
        }

        var reports: [ReplayReport] = []
        var disagreements: [String: [String]] = [:]
        for script in loaded {
            var localReport: ReplayReport?
            if runLocal {
                let localNetwork = url == nil ? network ?? .loopback : .loopback
                let report = try ScriptRunner.runLocal(script, fps: fps, network: localNetwork, trace: trace != nil)
                try writeTrace(report, tag: "local", folder: traceIsFolder)
                localReport = report
                reports.append(report)
            }
            if let url {
                var report = try ScriptRunner.runRemote(script, url: url, network: network, trace: trace != nil)
                try writeTrace(report, tag: "url", folder: traceIsFolder)
                if let localReport {
                    let differences = ScriptRunner.disagreements(localReport, report)
                    disagreements[script.name] = differences
                    report = report.adding(failures: differences)
                }
                reports.append(report)
            }
        }

        if json {
            print(reports.jsonOnePerLine)
        } else {
            reports.forEach { print($0.summary) }
            let failed = reports.filter { !$0.passed }.count
            print("\(reports.count - failed) passed, \(failed) failed")
        }
        if reports.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }

    private func writeTrace(_ report: ReplayReport, tag: String, folder: Bool) throws {
        guard let trace else { return }
        let path = folder ? "\(trace)/\(report.name).\(tag).jsonl" : trace
        let text = report.traceLines.map { $0 + "\n" }.joined()
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw ValidationError("cannot write the trace '\(path)'")
        }
    }
}
