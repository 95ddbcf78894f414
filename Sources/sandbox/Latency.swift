import ArgumentParser
import Foundation
import SandboxSession
import SandboxTools
import SandboxWebSockets

struct Latency: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure input → frame latency against a sandbox server, and the echo floor beside it.",
        discussion: """
            Each connection pans continuously (a down, then moves at --rate) and every move is a \
            sample: sent → the first frame whose ack ≥ its seq, timed from its scheduled send time. \
            Then pings on the same schedule give the protocol's own round trip; the frames' sent − \
            received give the server's own time. --compare runs the same client and schedule against an \
            echo server (tools/floor: `ws-floor echo`, or libwebsockets' test server) in the same \
            run and reports the ratio to that floor.
            """)

    // Optional only so that a server given without --url is named in validate() (`MisplacedURL`).
    @Option(
        help: "The sandbox server (required), e.g. ws://127.0.0.1:8080/ or wss://localhost:8443/.",
        transform: WebSocketURL.argument)
    var url: WebSocketURL?
    @Argument(help: .hidden) var misplacedURL: String?
    @OptionGroup var tls: TLSOptions
    @Option(help: "Recorded samples, over all connections.") var samples = 2_000
    @Option(help: "Samples per second per connection.") var rate = 200.0
    @Option(help: "Concurrent connections.") var concurrency = 1
    @Option(help: "Unrecorded samples per connection first.") var warmup = 50
    @Option(help: "An echo server to measure with the same client in the same run.", transform: WebSocketURL.argument)
    var compare: WebSocketURL?
    @Option(name: .customLong("compare-protocol"), help: "The subprotocol to offer the echo server (default: none).")
    var compareProtocol: String?
    @Option(
        help:
            "A simulated network for each connection, one way: delay±jitter in ms, e.g. 60±20 (or 60+-20, 60±20@SEED).",
        transform: NetworkConditions.argument)
    var network: NetworkConditions?
    @Option(
        name: .customLong("repeat"),
        help: "Measure this many times (with --compare, alternately with the echo floor) and sum up the medians (1…50)."
    )
    var repeats = 1
    @Flag(help: "Print the figures as JSON (with --repeat, one object per run, then the summary).") var json = false
    @Flag(name: .customLong("no-progress"), help: "No progress bar.") var noProgress = false

    func validate() throws {
        try MisplacedURL.check(url: url, given: misplacedURL)
        guard samples >= 1, samples <= 10_000_000 else { throw ValidationError("--samples must be in 1…10000000") }
        guard rate > 0, rate <= 100_000 else { throw ValidationError("--rate must be in (0, 100000]") }
        guard (1...10_000).contains(concurrency) else { throw ValidationError("--concurrency must be in 1…10000") }
        guard warmup >= 0 else { throw ValidationError("--warmup must be ≥ 0") }
        guard (1...50).contains(repeats) else { throw ValidationError("--repeat must be in 1…50") }
    }

    func run() throws {
        try reportingDataErrors(measure)
    }

    /// Results on standard output, errors on standard error; a server that answered nothing is
    /// one line there and exit 1, with no table of nothing (`test_cli_errors.py`:
    /// `test_latency_against_a_dead_port_says_so_in_one_line`).
    private func measure() throws {
        guard let given = self.url else { throw MisplacedURL.missing }
        let urls = try tls.apply(to: [given] + (self.compare.map { [$0] } ?? []))
        let (url, compare) = (urls[0], urls.count > 1 ? urls[1] : nil)
        var options = LatencyOptions()
        options.samples = samples
        options.rate = rate
        options.concurrency = concurrency
        options.warmup = warmup
        options.network = network
        // A bar only where a person watches, and only when the measuring takes a while.
        let seconds = Double(samples / concurrency + warmup) / rate * Double(repeats) * (compare == nil ? 1 : 2)
        let bar = ProgressBar.onTerminal(!noProgress && !json && seconds > 2)

        var summary = LatencyRepeatSummary(hasFloor: compare != nil)
        var failed = false
        if repeats > 1, json { print("[", terminator: "") }
        for run in 1...repeats {
            let label = repeats > 1 ? " \(run)/\(repeats)" : ""
            let sandbox = try probe(.sandbox, url, options).run(url: url, subprotocol: sandboxSubprotocol) {
                bar?.show("sandbox\(label)", $0)
            }
            if sandbox.roundTrip.totalCount == 0, run == 1 {
                bar?.finish()
                if json {
                    let report = LatencyReport(
                        sandbox: sandbox, floor: nil, options: options, url: url.description, compare: nil)
                    print(report.json)
                }
                let why = sandbox.errors.isEmpty ? ["\(url) answered no sample"] : Array(sandbox.errors.prefix(3))
                throw DataError(why, code: 1)
            }
            var floor: LatencyResult?
            if let compare {
                floor = try probe(.echo, compare, options).run(url: compare, subprotocol: compareProtocol) {
                    bar?.show("floor\(label)  ", $0)
                }
            }
            bar?.finish()
            let report = LatencyReport(
                sandbox: sandbox, floor: floor, options: options, url: url.description, compare: compare?.description)
            failed = failed || !report.succeeded
            DataError.say(Array(report.errors.prefix(10)))
            if repeats == 1 {
                print(json ? report.json : report.text)
                break
            }
            // Each run as it ends (and flushed: through a pipe, a long measurement cut short
            // keeps the runs it finished); the summary keeps only their percentiles.
            if json {
                print(report.json + ",")
            } else {
                print(LatencyRepeatSummary.line(run: run, of: repeats, report))
            }
            summary.add(report)
            if report.measuredNothing, !json {
                print("  stopping: run \(run) measured nothing, the next would not either")
            }
            fflush(nil)  // every stream: `stdout` is not concurrency-safe to name in Swift 6
            if report.measuredNothing { break }
        }
        if repeats > 1 {
            if json { print(summary.json + "]") } else { summary.lines.forEach { print($0) } }
        }
        if failed { throw ExitCode(1) }
    }
}

extension Latency {
    private func probe(_ target: LatencyProbe.Target, _ url: WebSocketURL, _ options: LatencyOptions) throws
        -> LatencyProbe
    {
        do {
            return try LatencyProbe(target: target, options: options, for: url)
        } catch {
            throw DataError([error.description], code: 1)
        }
    }
}
