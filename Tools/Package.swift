// swift-tools-version: 6.2
import PackageDescription

// The package's own mutation tester: a separate package, so that no user of PromiseMVP ever
// depends on swift-syntax. Run from the repository root: `swift run --package-path Tools mutate`.
let package = Package(
    name: "Tools",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mutate", targets: ["mutate"])
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1")
    ],
    targets: [
        .target(
            name: "MutationKit",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftIfConfig", package: "swift-syntax"),
            ]
        ),
        .executableTarget(name: "mutate", dependencies: ["MutationKit"]),
        .testTarget(name: "MutationKitTests", dependencies: ["MutationKit"]),
    ]
)
