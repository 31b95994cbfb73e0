// swift-tools-version: 6.1
import PackageDescription

// Platforms: `Synchronization.Mutex` guards every promise's state; it ships with the toolchain and
// needs macOS 15 / iOS 18 (see README, "Platforms"). Linux has it with every Swift 6 toolchain.
let package = Package(
    name: "PromiseMVP",
    platforms: [
        .macOS(.v15),
        .iOS(.v18),
        .tvOS(.v18),
        .watchOS(.v11),
        .visionOS(.v2),
    ],
    products: [
        .library(name: "Promises", targets: ["Promises"])
    ],
    targets: [
        .target(
            name: "Promises",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "PromisesTests",
            dependencies: ["Promises"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// Features that Swift 6 mode does not turn on yet but that we build to.
var upcomingFeatures: [SwiftSetting] {
    [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
