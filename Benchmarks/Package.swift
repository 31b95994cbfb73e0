// swift-tools-version: 6.2
import PackageDescription

// The benchmarks live in their own package so that the harness never becomes a dependency of a
// user of PromiseMVP. Run them with `bash Benchmarks/run` from the repository root.
let package = Package(
    name: "PromiseMVPBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "PromiseMVP", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PromiseBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Promises", package: "PromiseMVP"),
                .product(name: "Services", package: "PromiseMVP"),
                .product(name: "OfflineKit", package: "PromiseMVP"),
                .product(name: "Melodies", package: "PromiseMVP"),
                .product(name: "Orders", package: "PromiseMVP"),
                // TestHTTPServer and TestResourceAPI: the loopback shop the outbox syncs to. Not
                // OrdersTesting or PromiseMVPTesting: they link XCTest and Swift Testing, which a
                // plain executable cannot load on macOS.
                .product(name: "PromiseMVPTestServer", package: "PromiseMVP"),
                "CSQLiteBenchmark",
            ],
            path: "Benchmarks/PromiseBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // One scenario at a time, without the harness, for callgrind to count (`bash Benchmarks/count`);
        // under Sources/, not Benchmarks/, where the harness takes every executable for a benchmark.
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [.product(name: "Promises", package: "PromiseMVP")],
            path: "Sources/InstructionCounts"
        ),
        .systemLibrary(name: "CSQLiteBenchmark", path: "Sources/CSQLiteBenchmark", pkgConfig: "sqlite3"),
    ],
    swiftLanguageModes: [.v6]
)
