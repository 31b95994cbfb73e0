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
            let snapshots = try decoder.decode([OutboxDiagnostics].self, from: Data(exported.output.utf8))
            #expect(snapshots.map(\.feature) == ["attachments", "customers", "orders"])
            #expect(snapshots.last?.changes.map { "\($0.kind) \($0.state)" } == ["create waiting"])
            for secret in ["4111", "eve@example.com", "Elder"] {
                #expect(!exported.output.contains(secret), "\(secret) in the export")
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
