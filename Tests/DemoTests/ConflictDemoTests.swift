import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// `orders update`, a conflict with another device's change, `orders show` with both copies, and
    /// `orders resolve`, through the built `demo` against the shop on a loopback server.
    @Suite("demo: conflicts")
    struct ConflictDemoTests {
        @Test(
            "an offline update the shop's copy moved on from: sync says conflict, show puts both side by side, resolve settles"
        )
        func conflictShownAndResolved() async throws {
            // Given: the shop's orders listed, then changed here offline and in the shop
            let demo = DemoRunner()
            let (shop, server) = try OfflineWritesDemoTests.sampleShop()
            defer { server.stop() }
            let api = ["--api", server.baseURL.absoluteString]
            _ = try await demo.run(["orders"] + api)
            let updated = try await demo.run([
                "orders", "update", "abc123", "--last-name", "Mine", "--offline",
            ])
            shop.editOnServer("abc123") { $0.lastName = "Theirs" }

            // When
            let synced = try await demo.run(["orders", "sync"] + api)
            let shown = try await demo.run(["orders", "show", "abc123", "--offline"])
            let listed = try await demo.run(["orders", "--offline"])
            let resolved = try await demo.run(["orders", "resolve", "abc123", "--keep-theirs"] + api)

            // Then
            #expect(
                updated.status == 0 && updated.output.contains("Updated order abc123"), "\(updated.error)")
            #expect(
                synced.status == 1 && synced.output.contains("Conflict: update order abc123"),
                "\(synced.output)")
            #expect(shown.output.contains("Changed in the shop meanwhile:"), "\(shown.output)")
            #expect(
                shown.output.split(separator: "\n").contains {
                    $0.contains("Amy Mine") && $0.contains("Amy Theirs")
                },
                "\(shown.output)")
            #expect(
                listed.output.contains("conflict")
                    && listed.output.contains("in conflict with the shop's copy"))
            #expect(resolved.status == 0 && resolved.output.contains("Nothing waits"), "\(resolved.output)")
            #expect(shop.storedOrders.first { $0.id == "abc123" }?.lastName == "Theirs")
            let after = try await demo.run(["orders", "show", "abc123", "--offline"])
            #expect(after.output.contains("Amy Theirs") && !after.output.contains("Changed in the shop"))
        }

        @Test(
            "resolve needs one side; --keep-mine or --keep-theirs alone, or an update option elsewhere, is a wrong command line",
            arguments: [
                ["orders", "resolve", "abc123"],
                ["orders", "resolve", "abc123", "--keep-mine", "--keep-theirs"],
                ["orders", "--keep-mine"], ["orders", "sync", "--last-name", "X"],
            ])
        func resolveArguments(arguments: [String]) async throws {
            // When
            let run = try await DemoRunner().run(arguments + ["--offline"])

            // Then
            #expect(run.status == 2, "\(run.error)")
        }
    }
#endif
