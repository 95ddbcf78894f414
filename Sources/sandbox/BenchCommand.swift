import ArgumentParser
import Foundation
import SandboxTools
import SandboxWebSockets
import Synchronization

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "N sessions in a continuous completion animation at F fps: throughput, on-time frames, jitter, CPU, memory.",
        discussion: """
            Without --url it starts its own `sandbox serve --port 0` (this same binary) so that the \
            server's CPU and RSS can be read from /proc. Each session is configured for a 60 s \
            completion at --fps and played, again and again. A frame is on time when its interval \
            from the previous one is within half a period of 1/fps; jitter is |interval − 1/fps|. \
            --ramp finds the largest N holding ≥ 99 % of frames on time with p99 jitter ≤ 2 ms. \
            --compare measures a plain streamer (tools/floor: `ws-floor stream`) the same way.
            """)

    @Option(help: "A running sandbox server (ws:// or wss://); default: start one.", transform: WebSocketURL.argument)
    var url: WebSocketURL?
    @Option(help: "The port of the server bench starts (without --url; default: a free one).") var port: Int?
    @OptionGroup var tls: TLSOptions
    @Option(name: .customLong("server-pid"), help: "The --url server's process id, for its CPU and RSS.") var serverPID:
        Int32?
    @Option(
        name: .customLong("balancer-pid"),
        help: "A load balancer's process id (--url through HAProxy): its CPU, and per frame.")
    var balancerPID: Int32?
    @Option(help: "Sessions (the starting point with --ramp).") var sessions = 100
    @Option(help: "Frames per second per session.") var fps = 60
    @Option(help: "Seconds measured per run, after connecting and a second of warm-up.") var seconds = 5.0
    @Option(name: .customLong("client-threads"), help: "Client threads (each its own libwebsockets loop).")
    var clientThreads = 1
    @Option(name: .customLong("server-threads"), help: "Service threads of the server it starts (serve --threads).")
    var serverThreads = 1
    @Option(name: .customLong("server-tick-phases"), help: "Phases of the server it starts (serve --tick-phases).")
    var serverTickPhases = ServerOptions.defaultTickPhases
    @Option(
        name: .customLong("server-prebuilt-frames"),
        help: ArgumentHelp(
            "Diagnostic: the server it starts sends every frame as one prebuilt message of this many bytes (serve --prebuilt-frames): the server core's cost without making frames.",
            valueName: "bytes"))
    var serverPrebuiltFrames: Int?
    @Flag(help: "Find the largest N that holds the bar.") var ramp = false
    @Option(help: "Largest N the ramp tries.") var limit = 4_000
    @Option(
        help: "A plain streamer to measure the same way, e.g. ws://127.0.0.1:7682/.", transform: WebSocketURL.argument)
    var compare: WebSocketURL?
    @Option(name: .customLong("compare-pid"), help: "The streamer's process id, for its CPU and RSS.") var comparePID:
        Int32?
    @Option(
        help: ArgumentHelp(
            "Start the streamer to compare with from this `ws-floor` (make floor: .build/ws-floor), instead of --compare.",
            discussion: "It sends frames of the sandbox's mean size, from the first sandbox run, and stops with bench.")
    )
    var floor: String?
    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp(
            "Measure N times (1…50), alternating with the --compare streamer, and sum up: medians, ranges, and the CPU ratio run by run.",
            discussion:
                "One run moves by ±10 % on a shared machine; alternating puts both targets under the same drift."))
    var repeats = 1
    @Flag(help: "Print the results as JSON.") var json = false
    @Flag(name: .customLong("no-progress"), help: "No progress line (shown only when standard error is a terminal).")
    var noProgress = false

    func validate() throws {
        guard (1...20_000).contains(sessions) else { throw ValidationError("--sessions must be in 1…20000") }
        try FrameRate.validate(fps)
        guard seconds >= 1, seconds <= 600 else { throw ValidationError("--seconds must be in 1…600") }
        if let port {
            guard url == nil else {
                throw ValidationError("--port is the port of the server bench starts: not with --url")
            }
            guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0…65535") }
        }
        if let balancerPID {
            guard url != nil else { throw ValidationError("--balancer-pid needs --url (the balancer's address)") }
            guard ProcessStats.cpuSeconds(balancerPID) != nil else {
                throw ValidationError("--balancer-pid \(balancerPID): no such process")
            }
        }
        guard (1...16).contains(clientThreads) else { throw ValidationError("--client-threads must be in 1…16") }
        guard (1...16).contains(serverThreads) else { throw ValidationError("--server-threads must be in 1…16") }
        try TickPhases.validate(serverTickPhases, option: "--server-tick-phases")
        if let serverPrebuiltFrames {
            guard url == nil else {
                throw ValidationError("--server-prebuilt-frames is for the server bench starts: not with --url")
            }
            try PrebuiltFrames.validate(serverPrebuiltFrames, option: "--server-prebuilt-frames")
        }
        guard (1...50).contains(repeats) else { throw ValidationError("--repeat must be in 1…50") }
        if repeats > 1, ramp { throw ValidationError("--repeat sums up single runs: not with --ramp") }
        if let floor {
            guard compare == nil, comparePID == nil else {
                throw ValidationError("--floor starts the streamer --compare and --compare-pid name: one or the other")
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: floor, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: floor)
            else {
                throw ValidationError("--floor \(floor): not an executable file (make floor builds .build/ws-floor)")
            }
        }
    }

    func run() throws {
        try reportingDataErrors(measure)
    }

    /// Results on standard output (a table at the end, or JSON), a progress line and errors on
    /// standard error.
    private func measure() throws {
        let children = ChildProcesses()
        defer { children.stopAll() }
        var target = try url.map { try tls.apply(to: [$0])[0] }
        var pid = serverPID
        if target == nil {
            let (process, url) = try Self.startServer(
                fps: fps, threads: serverThreads, tickPhases: serverTickPhases, prebuiltFrames: serverPrebuiltFrames,
                port: port ?? 0, in: children)
            target = url
            pid = process.processIdentifier
        }
        Self.raiseFileLimit()

        let bar = ProgressBar.onTerminal(!noProgress && !json)
        var reports: [any JSONWritable] = []
        var results: (sandbox: [BenchResult], streamer: [BenchResult]) = ([], [])
        var table = BenchTable(balancer: balancerPID != nil)
        var notes: [String] = []
        var compare = try compare.map { try tls.apply(to: [$0])[0] }, comparePID = comparePID
        /// The sandbox's mean frame size in its latest run (what `--floor`'s streamer sends).
        var frameBytes: Double?
        func run(_ name: String, _ url: WebSocketURL, sandbox: Bool, pid: Int32?) {
            let measure = { (n: Int) in
                let result = Bench.measure(
                    url: url, isSandbox: sandbox, sessions: n, fps: fps, seconds: seconds, threads: clientThreads,
                    serverPID: pid, balancerPID: sandbox ? balancerPID : nil
                ) { bar?.show("\(name) \(n) sessions @ \(fps) fps", $0) }
                bar?.finish()
                if let first = result.errors.first {
                    let what = "\(name) \(n) sessions: \(result.errors.count) errors, the first: \(first.prefix(200))"
                    DataError.say([what])
                }
                return result
            }
            if !notes.contains(where: { $0.hasPrefix("\(name) ") }) { notes.append("\(name) \(url)") }
            if ramp {
                let (best, steps) = Bench.ramp(start: sessions, limit: limit, measure: measure) { table.add(name, $0) }
                if sandbox { frameBytes = (best ?? steps.last)?.meanFrameBytes }
                let found = best.map { String($0.sessions) } ?? "none (not even \(sessions))"
                notes.append("\(name): largest N at the bar: \(found)")
                reports.append(
                    BenchTargetReport(target: name, url: url.description, outcome: .ramp(best: best, steps: steps)))
            } else {
                let result = measure(sessions)
                table.add(name, result)
                reports.append(BenchTargetReport(target: name, url: url.description, outcome: .single(result)))
                if sandbox {
                    results.sandbox.append(result)
                    frameBytes = result.meanFrameBytes
                } else {
                    results.streamer.append(result)
                }
            }
        }
        for _ in 0..<repeats {
            run("sandbox", target!, sandbox: true, pid: pid)
            if let floor, compare == nil {  // not started yet (validate: --floor without --compare)
                // The same bytes per frame as the sandbox sent; nothing to match when it sent nothing.
                guard let frameBytes, frameBytes >= 1 else {
                    if json { print(reports.jsonOnePerLine) }
                    throw DataError(
                        ["--floor: the sandbox's run received no frames, so there is no frame size to stream"],
                        code: 64)
                }
                let bytes = min(max(Int(frameBytes.rounded()), 25), 65_536)  // what ws-floor takes
                let (process, url) = try Self.startFloor(floor, fps: fps, bytes: bytes, in: children)
                compare = url
                comparePID = process.processIdentifier
                notes.append("(\(floor) stream --fps \(fps) --bytes \(bytes): the sandbox's mean frame size)")
            }
            if let compare { run("streamer", compare, sandbox: false, pid: comparePID) }
        }
        if repeats > 1 {
            let summary = BenchRepeatSummary(sandbox: results.sandbox, streamer: results.streamer)
            reports.append(summary)
            if !json { notes += [""] + summary.lines }
        }
        if json {
            print(reports.jsonOnePerLine)
        } else {
            print((table.lines + ["", BenchTable.legend] + notes).joined(separator: "\n"))
        }
    }

    /// Starts `sandbox serve --port 0` from this executable; its URL comes from the ready line.
    static func startServer(
        fps: Int, threads: Int, tickPhases: Int = ServerOptions.defaultTickPhases, prebuiltFrames: Int? = nil,
        port: Int = 0, in children: ChildProcesses
    ) throws -> (Process, WebSocketURL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: WebRoot.executablePath())
        // The page is not measured: serve's own (WebRoot), else an empty folder.
        let webRoot = (try? WebRoot.find().get()) ?? NSTemporaryDirectory()
        // Warnings only: a line per connection would bury bench's own output in thousands.
        process.arguments = [
            "serve", "--port", String(port), "--fps", String(fps), "--web-root", webRoot, "--threads", String(threads),
            "--tick-phases", String(tickPhases), "--log-level", "warning",
        ]
        if let prebuiltFrames { process.arguments! += ["--prebuilt-frames", String(prebuiltFrames)] }
        let output = Pipe()
        process.standardOutput = output
        try children.start(process)
        let text = firstLine(of: output)
        guard let ready = ReadyLine(parsing: text), let url = WebSocketURL("ws://\(ready.host):\(ready.port)/") else {
            // Its own error (a port in use, said in words) is on standard error already.
            throw DataError(["the server bench starts did not start\(text.isEmpty ? "" : ": \(text)")"], code: 1)
        }
        return (process, url)
    }

    /// Starts `ws-floor stream --port 0`; its port comes from its first line. On failure the
    /// child is left to `children` (bench's way out stops it, by force if need be).
    static func startFloor(_ path: String, fps: Int, bytes: Int, in children: ChildProcesses) throws -> (
        Process, WebSocketURL
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["stream", "--port", "0", "--fps", String(fps), "--bytes", String(bytes)]
        let output = Pipe()
        process.standardOutput = output
        do { try children.start(process) } catch {
            throw DataError(["--floor \(path) did not start: \(error.localizedDescription)"], code: 64)
        }
        let text = firstLine(of: output)
        guard text.hasPrefix("ws-floor listening on "), let port = Int(text.dropFirst("ws-floor listening on ".count)),
            let url = WebSocketURL("ws://127.0.0.1:\(port)/")
        else {
            throw DataError(
                ["--floor \(path) did not start as ws-floor stream (its first line: \"\(text.prefix(200))\")"],
                code: 64)
        }
        return (process, url)
    }

    /// The first line a child prints (its ready line), without the newline; "" when it prints
    /// none within 10 s: a wrong program must not hang bench. The reader is then left blocked
    /// (the caller fails, and stopping the child closes the pipe).
    static func firstLine(of pipe: Pipe) -> String {
        let line = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while !line.withLock({ $0.contains(UInt8(ascii: "\n")) }) {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.withLock { $0.append(chunk) }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { return "" }
        return line.withLock { String(decoding: $0.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self) }
    }

    /// Thousands of sessions need thousands of descriptors: raise the soft limit to the hard one.
    static func raiseFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
