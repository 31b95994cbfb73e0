import Foundation
import OfflineKit
import Testing

#if SUBPROCESSES
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// `demo status` and `demo status --json`: what waits, per collection, through the kit's
    /// diagnostics, and a support bundle with no body in it.
    @Suite("demo: status")
    struct StatusDemoTests {
        @Test("an order made offline shows as a create waiting; the JSON lists every collection and no card")
        func waitingOrder() async throws {
            // Given: an order made offline, paid with a card
            let demo = DemoRunner()
            let created = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"])
            #expect(created.status == 0, "\(created.error)")
            // When
            let shown = try await demo.run(["status", "--offline"])
            let exported = try await demo.run(["status", "--json", "--offline"])
            // Then
            #expect(shown.status == 0 && exported.status == 0, "\(shown.error) \(exported.error)")
            #expect(shown.output.contains("orders: 1 change waiting"), "\(shown.output)")
            #expect(shown.output.contains("create") && shown.output.contains("waiting"), "\(shown.output)")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let snapshots = try decoder.decode(StatusScreen.Bundle.self, from: Data(exported.output.utf8))
                .collections
            #expect(snapshots.map(\.feature) == ["attachments", "customers", "orders"])
            #expect(snapshots.last?.changes.map { "\($0.kind) \($0.state)" } == ["create waiting"])
            for secret in ["4111", "eve@example.com", "Elder"] {
                #expect(!exported.output.contains(secret), "\(secret) in the export")
            }
        }

        @Test(
            "--storage-budget lets the shop's orders go after a command, never one made here; status shows the usage"
        )
        func storageBudget() async throws {
            // Given: the sample orders kept, and one made offline
            let demo = DemoRunner()
            let created = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"])
            #expect(created.status == 0, "\(created.error)")
            let before = try await demo.run(["status", "--json", "--offline"])

            // When: a listing under a budget of one byte
            let listed = try await demo.run(["orders", "--offline", "--storage-budget", "1"])
            let after = try await demo.run(["status", "--json", "--offline", "--storage-budget", "1"])
            let shown = try await demo.run(["status", "--offline", "--storage-budget", "1"])
            let orders = try await demo.run(["orders", "--offline"])

            // Then: only the order made here is left, and the budget said it cannot be met
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let (full, bounded) = (
                try decoder.decode(StatusScreen.Bundle.self, from: Data(before.output.utf8)).storage,
                try decoder.decode(StatusScreen.Bundle.self, from: Data(after.output.utf8)).storage
            )
            #expect(listed.status == 0 && listed.error.contains("the budget is 1 byte"), "\(listed.error)")
            #expect(full.budget == nil && full.bytes > full.keptBytes && full.keptBytes > 0)
            #expect(
                bounded.budget == 1 && bounded.bytes == bounded.keptBytes
                    && bounded.keptBytes == full.keptBytes)
            #expect(
                shown.output.contains("storage: ") && shown.output.contains("budget 1 byte"),
                "\(shown.output)")
            #expect(
                orders.output.contains("Eve Elder") && orders.output.split(separator: "\n").count < 8,
                "\(orders.output)")
        }

        @Test("a size that is not one is a usage error")
        func storageBudgetSize() throws {
            #expect(try Arguments.bytes("2MB") == 2_000_000 && Arguments.bytes("500kb") == 500_000)
            #expect(try Arguments.bytes("123") == 123)
            for wrong in ["", "2 MB", "-1", "lots", "9999999999999999999MB"] {
                #expect(throws: UsageError.self) { try Arguments.bytes(wrong) }
            }
        }

        @Test("--json goes with status alone")
        func jsonAlone() async throws {
            let run = try await DemoRunner().run(["orders", "--json", "--offline"])
            #expect(run.status == 2 && run.error.contains("--json only goes with 'status'"), "\(run.error)")
        }

        @Test("a card number an API quoted in its reason is masked; other figures stay")
        func cardNumbersMasked() {
            #expect(
                StatusScreen.redacted("card 4111 1111 1111 1111 declined, code 402")
                    == "card [card number removed] declined, code 402")
            #expect(StatusScreen.redacted("4111-1111-1111-1111") == "[card number removed]")
            #expect(StatusScreen.redacted("order 12345 of 2026") == "order 12345 of 2026")
        }
    }
#endif
