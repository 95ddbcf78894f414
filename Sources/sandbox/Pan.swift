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
            expectation fails or the two ways disagree, 64 when a script cannot be read: every file is \
            read and checked first, each bad one is named (with the line and column of bad JSON), and \
            then none runs.
            """)

    @Argument(help: "Pan script files (JSON).") var scripts: [String]
    @Option(
        help: "Replay against this server, e.g. ws://127.0.0.1:8080/ or wss://localhost:8443/.",
        transform: WebSocketURL.argument)
    var url: WebSocketURL?
    @OptionGroup var tls: TLSOptions
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
        try reportingDataErrors(replay)
    }

    /// Every script is read before any runs: a batch with a bad file would otherwise stop part
    /// way, having run some (`test_cli_errors.py`: `test_pan_names_every_bad_file_and_runs_none`).
    static func load(_ paths: [String]) throws -> [PanScript] {
        var loaded: [PanScript] = []
        var problems: [String] = []
        for path in paths {
            do {
                loaded.append(try PanScript.load(path: path))
            } catch {
                problems.append(error.description)
            }
        }
        guard problems.isEmpty else {
            let count = problems.count == 1 ? "a script" : "\(problems.count) of \(paths.count) scripts"
            throw DataError(problems + ["\(count) cannot be run; none was run"], code: 64)
        }
        return loaded
    }

    private func replay() throws {
        let runLocal = local || self.url == nil
        let loaded = try Self.load(scripts)
        let url = try self.url.map { try tls.apply(to: [$0])[0] }
        let traceIsFolder = trace != nil && (loaded.count > 1 || (runLocal && url != nil))
        if let trace, traceIsFolder {
            do {
                try FileManager.default.createDirectory(atPath: trace, withIntermediateDirectories: true)
            } catch {
                throw DataError(["--trace \(trace): cannot make the folder (\(error.localizedDescription))"], code: 1)
            }
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
                var report: ReplayReport
                do {
                    report = try ScriptRunner.runRemote(script, url: url, network: network, trace: trace != nil)
                } catch {
                    throw DataError(["\(script.name): \(error.description)"], code: 1)
                }
                // A run that could not go on (no connection, a refused certificate) is an error as
                // well as a failed result: said on standard error too.
                for failure in report.failures where failure.hasPrefix("run: ") {
                    DataError.say(["\(script.name): \(failure.dropFirst(5))"])
                }
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
            throw DataError(["--trace: cannot write '\(path)'"], code: 1)
        }
    }
}
