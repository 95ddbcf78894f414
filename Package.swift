// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "TransitionSandbox",
    products: [
        .library(name: "TransitionCore", targets: ["TransitionCore"]),
        .executable(name: "sandbox", targets: ["sandbox"]),
    ],
    // Every dependency pinned to the version resolved and tested (Package.resolved is not committed):
    // a fresh clone builds what CI built. The transitive ones (swift-atomics, swift-metrics,
    // swift-numerics) resolve within these packages' own ranges.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", exact: "2.0.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", exact: "0.2.0"),
        .package(url: "https://github.com/apple/swift-collections.git", exact: "1.6.0"),
        // The ecosystem's logging API and Prometheus exposition: the server's logs and GET /metrics.
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
    ],
    targets: [
        // Pure and deterministic: no I/O, no clock reads. Time comes in as an argument.
        .target(name: "TransitionCore"),
        // The one C boundary: libwebsockets 4.1 (Debian libwebsockets-dev). Only SandboxWebSockets imports it.
        .systemLibrary(name: "CLibWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        // Pure, no I/O and no clock: the wire protocol (strict parser, one writer), session settings,
        // and the sessions as a state machine (SessionHub) whose actions the server and replays carry out.
        .target(name: "SandboxSession", dependencies: ["TransitionCore"]),
        // The one libwebsockets layer: the server group and its threads, connections, timers, the client;
        // and in Logging/ everything the server's log is (handlers, writer, budget, the one escaper),
        // so that `serve` needs nothing of the tools.
        .target(
            name: "SandboxWebSockets",
            dependencies: [
                "SandboxSession", "CLibWebSockets", .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The headless tools: pan scripts (replayed in-process on the session module, or over a
        // WebSocket), latency, bench. Only the files that open sockets import SandboxWebSockets.
        .target(
            name: "SandboxTools",
            dependencies: [
                "SandboxSession", "SandboxWebSockets", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // The thin command-line front end.
        .executableTarget(
            name: "sandbox",
            dependencies: [
                "SandboxSession", "SandboxWebSockets", "SandboxTools",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Release-mode timing loop for the per-event cost of the engine (target: ≤ 2 µs median).
        .executableTarget(name: "CoreBenchmark", dependencies: ["TransitionCore", "SandboxSession"]),
        .testTarget(
            name: "TransitionCoreTests",
            dependencies: [
                "TransitionCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "SandboxSessionTests",
            dependencies: ["SandboxSession", "TransitionCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "SandboxWebSocketsTests",
            dependencies: [
                "SandboxWebSockets", .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SandboxToolsTests",
            dependencies: ["SandboxTools", "SandboxSession"]
        ),
    ]
)
