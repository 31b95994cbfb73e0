// swift-tools-version: 6.2
import PackageDescription

// Platforms: the first releases with Swift concurrency, which the async bridge and the main-actor
// handlers need. Promise state is guarded by os_unfair_lock / a futex word (see Locked.swift),
// so nothing requires the iOS 18 / macOS 15 that Synchronization.Mutex would.
let package = Package(
    name: "PromiseMVP",
    platforms: [
        .macOS(.v10_15),
        .iOS(.v13),
        .tvOS(.v13),
        .watchOS(.v6),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "Promises", targets: ["Promises"]),
        .library(name: "Services", targets: ["Services"]),
        .library(name: "OfflineKit", targets: ["OfflineKit"]),
        .library(name: "Melodies", targets: ["Melodies"]),
        .library(name: "Orders", targets: ["Orders"]),
        .library(name: "PromiseMVPTesting", targets: ["PromiseMVPTesting"]),
        .library(name: "PromiseMVPTestServer", targets: ["PromiseMVPTestServer"]),
        .library(name: "MelodiesTesting", targets: ["MelodiesTesting"]),
        .library(name: "OrdersTesting", targets: ["OrdersTesting"]),
        .executable(name: "demo", targets: ["Demo"]),
    ],
    targets: [
        .target(
            name: "Promises",
            dependencies: ["CPromiseLock"],
            swiftSettings: upcomingFeatures
        ),
        // The 4-byte futex lock that guards a promise on Linux (see Locked.swift); C, because the
        // futex system call is not reachable from Swift.
        .target(name: "CPromiseLock"),
        // SQLite, the one module every platform imports: its map includes <sqlite3.h> and links
        // `sqlite3`, found where the platform keeps them (the SDK on Apple platforms, the system's
        // libsqlite3 on Linux). No pkg-config: it would find Homebrew's library on a Mac, with
        // macOS paths in an iOS build.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "Services",
            dependencies: ["Promises", "CSQLite"],
            swiftSettings: upcomingFeatures
        ),
        // The offline kit on top of Services: collections kept offline, the outbox that sends their
        // changes, and the scheduler that syncs them. An app of promises and MVP screens over a
        // database and an API needs Services alone.
        .target(
            name: "OfflineKit",
            dependencies: ["Promises", "Services"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "Melodies",
            dependencies: ["Promises", "Services"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "Orders",
            dependencies: ["Promises", "Services", "OfflineKit"],
            swiftSettings: upcomingFeatures
        ),
        // Test support, as small as its users' needs: the promise and services helpers, then each
        // feature's doubles and sample data on top of them.
        .target(
            name: "PromiseMVPTesting",
            dependencies: ["Promises", "Services", "PromiseMVPTestServer"],
            swiftSettings: upcomingFeatures
        ),
        // The loopback server and the REST collection behind it, without XCTest or Swift Testing:
        // an executable (the benchmarks) can link them on macOS, where a test framework loads
        // only into a test runner. PromiseMVPTesting re-exports them.
        .target(
            name: "PromiseMVPTestServer",
            dependencies: ["Promises", "Services"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "MelodiesTesting",
            dependencies: ["Melodies", "PromiseMVPTesting"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "OrdersTesting",
            dependencies: ["Orders", "PromiseMVPTesting"],
            swiftSettings: upcomingFeatures
        ),
        // The third screen, built as the "Adding a screen" article shows (Services.docc).
        .target(
            name: "Recipes",
            dependencies: ["Promises", "Services"],
            path: "Examples/Recipes",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "RecipesTests",
            dependencies: ["Recipes", "PromiseMVPTesting"],
            swiftSettings: upcomingFeatures
        ),
        // The editable offline screen, built as the "Adding an editable offline screen" article shows.
        .target(
            name: "Notes",
            dependencies: ["Promises", "Services", "OfflineKit"],
            path: "Examples/Notes",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "NotesTests",
            dependencies: ["Notes", "OfflineKit", "PromiseMVPTesting"],
            swiftSettings: upcomingFeatures
        ),
        // The Tasks screen a new user builds from the articles alone: paged by date, merging by
        // field, sent and refreshed by itself.
        .target(
            name: "Tasks",
            dependencies: ["Promises", "Services", "OfflineKit"],
            path: "Examples/Tasks",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "TasksTests",
            dependencies: ["Tasks", "OfflineKit", "PromiseMVPTesting"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "Demo",
            dependencies: ["Promises", "Services", "OfflineKit", "Melodies", "Orders"],
            path: "Examples/Demo",
            exclude: ["README.md"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ServicesTests",
            dependencies: ["Services", "PromiseMVPTesting"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "OfflineKitTests",
            dependencies: ["OfflineKit", "Services", "PromiseMVPTesting"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "MelodiesTests",
            dependencies: ["Melodies", "MelodiesTesting"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "OrdersTests",
            // Notes too: one test holds both features to the same outcome for the same event.
            dependencies: ["Orders", "OrdersTesting", "OfflineKit", "Notes"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "DemoTests",
            // The demo is an executable, built where tests may start processes (`subprocesses`).
            dependencies: [
                .target(name: "Demo", condition: .when(platforms: [.macOS, .linux])), "MelodiesTesting",
                "OrdersTesting", "OfflineKit",
            ],
            // Databases earlier versions of the demo wrote, read from the checkout by the tests.
            exclude: ["Fixtures"],
            swiftSettings: upcomingFeatures + subprocesses
        ),
        .executableTarget(
            name: "database-torture",
            dependencies: ["Promises", "Services"],
            path: "Tests/Tools/DatabaseTorture",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                .target(name: "database-torture", condition: .when(platforms: [.macOS, .linux])),
                "PromiseMVPTesting", "MelodiesTesting", "OrdersTesting", "Promises",
                "Services", "Melodies", "Orders",
            ],
            swiftSettings: upcomingFeatures + subprocesses
        ),
        .testTarget(
            name: "PromiseMVPTestingTests",
            dependencies: ["PromiseMVPTesting", "PromiseMVPTestServer", "Promises", "Services"],
            swiftSettings: upcomingFeatures
        ),
        // What the documents cite (files, tests, types) exists, and the articles print their code
        // as compiled: read from the checkout, so no dependency.
        .testTarget(
            name: "DocumentationTests",
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

/// `SUBPROCESSES`: the platforms whose tests may start a process (`Foundation.Process`, which
/// exists on macOS and Linux only) and find tools such as `chattr` (Linux) or `chflags` (macOS).
/// Tests that run the demo or a helper as a subprocess are compiled under `#if SUBPROCESSES`, so
/// a test build for iOS, tvOS, watchOS or visionOS leaves them out instead of failing to compile.
var subprocesses: [SwiftSetting] {
    [.define("SUBPROCESSES", .when(platforms: [.macOS, .linux]))]
}
