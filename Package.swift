// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "TransitionSandbox",
    products: [
        .library(name: "TransitionCore", targets: ["TransitionCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // Pure and deterministic: no I/O, no clock reads. Time comes in as an argument.
        .target(name: "TransitionCore"),
        // Release-mode timing loop for the per-event cost of the engine (issue: ≤ 2 µs median).
        .executableTarget(name: "CoreBenchmark", dependencies: ["TransitionCore"]),
        .testTarget(
            name: "TransitionCoreTests",
            dependencies: [
                "TransitionCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ]
)
