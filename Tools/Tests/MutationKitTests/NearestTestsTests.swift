import Testing

@testable import MutationKit

@Suite("NearestTests")
struct NearestTestsTests {
    static let files = [
        "Tests/OfflineKitTests/Outbox/OutboxTests.swift",
        "Tests/OfflineKitTests/Outbox/OutboxClaimTests.swift",
        "Tests/OfflineKitTests/Outbox/OutboxClaimTests+Clocks.swift",
        "Tests/OfflineKitTests/Outbox/Fixtures/seed.json",
        "Tests/OfflineKitTests/Outbox/Deeper/DeeperTests.swift",
        "Tests/OfflineKitTests/Sync/SyncSchedulerTests.swift",
        "Tests/OfflineKitTests/RootTests.swift",
        "Tests/MelodiesTests/MelodyTests.swift",
    ]

    static func mutant(_ file: String, _ module: String) -> Mutant {
        Mutant(
            file: file, module: module, line: 1, offset: 0, length: 1, replacement: "x", kind: .negation,
            description: "planted")
    }

    @Test("a file's nearest tests are its mirrored folder's suites, one per name, then its module's target")
    func mirroredFolderThenTarget() {
        // Given
        let nearest = NearestTests(testFiles: Self.files, suiteGiven: false)

        // When
        let filters = nearest.filters(
            for: Self.mutant("Sources/OfflineKit/Outbox/OutboxClaim.swift", "OfflineKit"))

        // Then: the folder's own files only, extensions folded into their suite
        #expect(filters == [#"OfflineKitTests\.(OutboxClaimTests|OutboxTests)"#, "OfflineKitTests"])
    }

    @Test("with a suite of the run's own the target is left to it; a folder without tests gives none")
    func suiteGivenAndNoFolder() {
        // Given
        let nearest = NearestTests(testFiles: Self.files, suiteGiven: true)

        // When
        let root = nearest.filters(for: Self.mutant("Sources/OfflineKit/OfflineKit.swift", "OfflineKit"))
        let bare = nearest.filters(for: Self.mutant("Sources/OfflineKit/Offline/Feed.swift", "OfflineKit"))
        let testing = nearest.filters(
            for: Self.mutant("Sources/MelodiesTesting/Stub.swift", "MelodiesTesting"))
        let none = nearest.filters(for: Self.mutant("Sources/Demo/main.swift", "Demo"))

        // Then
        #expect(root == [#"OfflineKitTests\.(RootTests)"#])
        #expect(bare.isEmpty)
        #expect(testing == [#"MelodiesTests\.(MelodyTests)"#])
        #expect(none.isEmpty)
    }

    @Test("a module whose name does not say its test target uses the one the run names for it")
    func namedTargetForAModule() {
        // Given: the test server's tests kept with the test support's
        let files = [
            "Tests/PromiseMVPTestingTests/TestHTTPServerTests.swift",
            "Tests/ServicesTests/HTTP/APITests.swift",
        ]
        let unnamed = NearestTests(testFiles: files, suiteGiven: false)
        let named = NearestTests(
            testFiles: files, suiteGiven: false, targets: ["PromiseMVPTestServer": "PromiseMVPTestingTests"])
        let mutant = Self.mutant("Sources/PromiseMVPTestServer/TestHTTPServer.swift", "PromiseMVPTestServer")

        // When
        let without = unnamed.filters(for: mutant)
        let with = named.filters(for: mutant)

        // Then
        #expect(without.isEmpty)
        #expect(with == [#"PromiseMVPTestingTests\.(TestHTTPServerTests)"#, "PromiseMVPTestingTests"])
    }
}
