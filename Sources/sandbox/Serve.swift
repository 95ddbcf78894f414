import ArgumentParser
import Foundation
import Logging
import SandboxSession
import SandboxWebSockets

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the page and the transition-sandbox WebSocket protocol (v2, v1).",
        discussion:
            "Without --web-root the page is looked for in \(WebRoot.searchOrder), BIN being this binary's folder.")

    @Option(help: "Address to bind (loopback by default).") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one.") var port = 8080
    @Option(
        name: .customLong("web-root"),
        help: ArgumentHelp(
            "Folder with the page (default: the page installed beside this binary, found wherever serve starts)."))
    var webRoot: String?
    @Option(help: "Frames per second while a transition completes (\(FrameRate.rangeText)).") var fps = 60
    @Option(name: .customLong("allow-origin"), help: "A browser origin allowed besides the server's own (repeatable).")
    var allowOrigin: [String] = []
    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp(
            "A Host name allowed besides localhost, IP addresses and --host (repeatable; .example.com allows subdomains).",
            discussion: "Requests naming any other Host are refused with 403: a defence against DNS rebinding."))
    var allowHost: [String] = []
    @Option(
        name: .customLong("max-connections"),
        help: "Open WebSocket connections at most (default: sized to the descriptor limit); past it, 503.")
    var maxConnections: Int?
    @Option(
        name: .customLong("max-viewers"),
        help: "Viewers a session takes at most, from any thread (0…10000); past it, join gets too-many-viewers.")
    var maxViewers = SessionHub.defaultMaxViewers
    @Option(
        name: .customLong("max-connections-per-address"),
        help: ArgumentHelp(
            "Open WebSocket connections one client address may hold (0: no limit); past it, refused at accept.",
            discussion: "127.0.0.1 is exempt: behind the balancer it is every client (deploy/haproxy.cfg limits it)."))
    var maxConnectionsPerAddress = ServerOptions.defaultMaxConnectionsPerAddress
    @Option(
        name: .customLong("handshakes-per-address"),
        help: "TLS handshakes a second one address may start (0.1…100000, bursts of twice that; with --tls-cert only).")
    var handshakesPerAddress = ServerOptions.defaultHandshakesPerAddress
    @Option(
        name: .customLong("write-timeout"),
        help: "Seconds a connection's writes may wait for a peer that does not read before it is cut.")
    var writeTimeout = 30.0
    @Option(help: "Service threads; connections are dealt across them (a viewer joins a session on any thread).")
    var threads = 1
    @Option(
        name: .customLong("tick-phases"),
        help: ArgumentHelp(
            "Phases of each frame period (\(TickPhases.rangeText)): sessions are dealt across them so a thread's frames do not all leave in one burst; 1: all at the top of the period (each phase is another poll over every connection: 1 is the cheapest in CPU).",
            valueName: "n"))
    var tickPhases = ServerOptions.defaultTickPhases
    @Option(
        name: .customLong("prebuilt-frames"),
        help: ArgumentHelp(
            "Diagnostic: send every frame as one prebuilt message of this many bytes (\(PrebuiltFrames.rangeText)), the bytes ws-floor stream sends; sessions tick as ever. The server core's cost without making frames (docs/PERFORMANCE.md); the page shows nothing.",
            valueName: "bytes"))
    var prebuiltFrames: Int?
    @Option(
        help: ArgumentHelp(
            "The simulated network of every new connection, one way: delay±jitter in ms, e.g. 60±20 (or 60+-20, 60±20@SEED).",
            discussion:
                "Both directions are held that long (in order, as TCP delivers); a client may change its own link with configure's network."
        ),
        transform: NetworkConditions.argument)
    var network: NetworkConditions?
    @Option(
        name: .customLong("byte-budget"),
        help: ArgumentHelp(
            "MiB held for all clients together (1…65536): replies, network-lab traffic, kernel send queues.",
            discussion: "Past 3/4 new network links are refused (over-budget); past it the largest holders are cut."))
    var byteBudget = ProcessBudget.defaultBytes >> 20
    @Option(
        name: .customLong("log-level"),
        help: "trace, debug (adds every error sent to a client), info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info
    @Option(name: .customLong("log-format"), help: "text, or json (one object per line); logs go to standard error.")
    var logFormat: LogFormat = .text
    @Flag(name: .customLong("no-metrics"), help: "No GET /metrics (Prometheus text format).") var noMetrics = false
    @Option(
        name: .customLong("tls-cert"),
        help: "PEM certificate (chain) file: serve https:// and wss:// only (needs --tls-key).")
    var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key file of --tls-cert.") var tlsKey: String?
    @Option(
        help: ArgumentHelp(
            "This process's name behind a balancer (1–16 letters and digits): session ids start NODE- (docs/DEPLOY.md).",
            valueName: "name"))
    var node: String?

    /// `--host` must be an IPv4 address literal this machine has (or 0.0.0.0). libwebsockets
    /// takes anything — an interface name, `127.1`, `0`, an address elsewhere — and when it
    /// cannot bind it logs and serves on nothing while the ready line says it listens; `--host 0`
    /// meant as 0.0.0.0 was such a case (test_hostile.py: `test_serve_refuses_a_host_it_cannot_listen_on`).
    static func validateHost(_ host: String) throws {
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else {
            throw ValidationError(
                "--host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0; got '\(host.prefix(64))'")
        }
        guard address.s_addr != 0 else { return }  // 0.0.0.0: every interface
        // Bind a throwaway socket to the address: only a local one can be bound.
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return }
        defer { close(probe) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr = address
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            throw ValidationError(
                "--host \(host) is not an address of this machine (\(String(cString: strerror(errno))))")
        }
    }

    func validate() throws {
        try FrameRate.validate(fps)
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0…65535") }
        try Self.validateHost(host)
        guard (1...16).contains(threads) else { throw ValidationError("--threads must be in 1…16") }
        try TickPhases.validate(tickPhases, option: "--tick-phases")
        if let prebuiltFrames { try PrebuiltFrames.validate(prebuiltFrames, option: "--prebuilt-frames") }
        guard writeTimeout >= 0.1, writeTimeout <= 3600 else {
            throw ValidationError("--write-timeout must be in 0.1…3600 seconds")
        }
        guard (1...65536).contains(byteBudget) else { throw ValidationError("--byte-budget must be in 1…65536 MiB") }
        if let maxConnections, !(1...1_000_000).contains(maxConnections) {
            throw ValidationError("--max-connections must be in 1…1000000")
        }
        guard (0...10_000).contains(maxViewers) else { throw ValidationError("--max-viewers must be in 0…10000") }
        guard (0...1_000_000).contains(maxConnectionsPerAddress) else {
            throw ValidationError("--max-connections-per-address must be in 0…1000000 (0: no limit)")
        }
        guard handshakesPerAddress >= 0.1, handshakesPerAddress <= 100_000 else {
            throw ValidationError("--handshakes-per-address must be in 0.1…100000 a second")
        }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        if let node {
            // Letters and digits only: the id's prefix ends at the first "-", and the balancer's
            // rule (deploy/haproxy.cfg) matches it as is.
            let isAlphanumeric = node.utf8.allSatisfy {
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)
            }
            guard (1...16).contains(node.utf8.count), isAlphanumeric else {
                throw ValidationError("--node must be 1–16 letters and digits")
            }
        }
    }

    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json

        var lines: LineLogHandler.Format { self == .json ? .json : .text }
    }

    /// Loopback only: 127.0.0.0/8 or localhost (IPv6 is off, see ServerOptions).
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.")
    }

    func run() throws {
        try reportingDataErrors(serve)
    }

    /// The files the options name: a data error each (no usage text: the command line was right).
    private func checkFiles() throws {
        var problems: [String] = []
        var isFolder: ObjCBool = false
        if let webRoot,
            !FileManager.default.fileExists(atPath: webRoot, isDirectory: &isFolder) || !isFolder.boolValue
        {
            problems.append("--web-root '\(webRoot)' is not a folder")
        }
        for (flag, path) in [("--tls-cert", tlsCert), ("--tls-key", tlsKey)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) {
                problems.append("\(flag) '\(path)' is not a readable file")
            }
        }
        if !problems.isEmpty { throw DataError(problems, code: 64) }
    }

    private func serve() throws {
        try checkFiles()
        let webRoot = try self.webRoot ?? WebRoot.find().get()
        // Before any thread starts: the signalfd may be registered after the ready line below.
        blockSignals([SIGINT, SIGTERM])
        let (level, format) = (logLevel, logFormat)
        // Every line goes through one bounded queue and a writer thread of its own (LogWriter):
        // a reader of stderr that stops never blocks a service thread; past 1 MiB queued lines
        // are dropped and counted, then "dropped N log lines" once the writer catches up.
        StandardErrorLog.start { dropped in
            let fields: Logger.Metadata = [
                "lines": .stringConvertible(dropped), "why": "standard error's reader did not keep up",
            ]
            return format.lines.line(
                time: LineLogHandler.realTime(), level: .warning, label: "sandbox", message: "log lines dropped",
                fields: fields)
        }
        // Whatever way run() ends (a bind error throws), what is queued gets a short while to
        // reach stderr; a reader that stopped must not hold up exit: after SIGTERM, what is left
        // of the shutdown's one deadline (ShutdownDeadline), else 1 s (docs/SECURITY.md).
        var flushSeconds = ShutdownDeadline.seconds
        defer { StandardErrorLog.writer?.flush(within: flushSeconds) }
        LoggingSystem.bootstrap { label in
            var handler = LineLogHandler.standardError(format.lines, label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "sandbox")
        if !Self.isLoopback(host) && tlsCert == nil && allowHost.isEmpty {
            logger.warning(
                "listening beyond loopback on \(host) in plain http and ws: anyone on the network can open the page and every session; serve TLS (--tls-cert, --tls-key) or name this machine's hosts (--allow-host), see docs/DEPLOY.md"
            )
        }
        if let prebuiltFrames {
            logger.warning(
                "diagnostic mode: every frame is \(prebuiltFrames) bytes of padding (--prebuilt-frames), not the session's state; the page shows no transition"
            )
        }
        var options = ServerOptions()
        options.logger = logger
        options.metrics = noMetrics ? nil : ServerMetrics()
        options.tlsCertificate = tlsCert
        options.tlsKey = tlsKey
        options.node = node
        options.host = host
        options.port = port
        options.webRoot = URL(fileURLWithPath: webRoot).standardizedFileURL.path
        options.fps = fps
        options.tickPhases = tickPhases
        options.prebuiltFrameBytes = prebuiltFrames
        if let network { options.network = network }
        options.allowedOrigins = allowOrigin
        options.allowedHosts = allowHost
        options.limits.maxConnections = maxConnections
        options.maxViewers = maxViewers
        options.limits.writeStallSeconds = writeTimeout
        options.budget = ProcessBudget(bytes: byteBudget << 20)
        options.maxConnectionsPerAddress = maxConnectionsPerAddress == 0 ? nil : maxConnectionsPerAddress
        options.handshakesPerAddress = handshakesPerAddress
        let group: ServerGroup
        do {
            group = try ServerGroup(options: options, threads: threads)
        } catch {
            // Said in words (ListenFailure): a port in use, a certificate and key that are no pair.
            throw DataError([error.description], code: 1)
        }
        // SIGINT/SIGTERM: every WebSocket closed with 1001, then exit 0. The ready line is one
        // line, flushed at once: scripts and tests wait for it.
        group.run(stopOnSignals: true) {
            FileHandle.standardOutput.write(
                Data(
                    (ReadyLine(host: host, port: group.port, threads: threads, secure: tlsCert != nil).text + "\n").utf8
                ))
            logger.info(
                "listening",
                metadata: [
                    "url": "\(tlsCert == nil ? "http" : "https")://\(host):\(group.port)/",
                    // Numbers and flags as JSON numbers and booleans (test_logs.py: `test_listening_line_types`).
                    "threads": .stringConvertible(threads), "metrics": .stringConvertible(!noMetrics),
                    "node": "\(node ?? "-")", "version": "\(BuildInfo.version)",
                ])
            // From here on, lws' own lines are about clients: debug, within the log budget.
            LWSLog.startupEnded()
        }
        logger.info("stopped")
        flushSeconds = group.shutdown.secondsLeft
    }
}

// Deliberate: swift-log's level is the option's type, and neither package declares it.
// swift-format-ignore: AvoidRetroactiveConformances
extension Logger.Level: @retroactive ExpressibleByArgument {}
