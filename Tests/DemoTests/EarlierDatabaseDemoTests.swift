import Foundation
import OrdersTesting
import Testing

#if SUBPROCESSES
    /// Databases written by earlier versions of the demo, with changes waiting, opened by this one:
    /// each change is sent once, and what the earlier version left (a conflict) is settled here.
    @Suite("demo: databases earlier versions wrote")
    struct EarlierDatabaseDemoTests {
        /// `Tests/DemoTests/Fixtures/<name>`, copied to be the runner's database.
        static func useFixture(_ name: String, for demo: DemoRunner) throws {
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/" + name)
            try FileManager.default.createDirectory(
                at: demo.database.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: fixture, to: demo.database)
        }

        @Test(
            "the demo before model versions (0166a42): its create, update and delete are sent once, its conflict settled"
        )
        func changesFromBeforeModelVersionsAreSent() async throws {
            // Given: the file as the demo at 0166a42 left it: ghi789 in conflict (the shop moved it
            // to "Theirs" at version 2), then an order created, abc123 renamed and def456 deleted
            let demo = DemoRunner()
            try Self.useFixture("demo-0166a42.sqlite", for: demo)
            let (shop, server) = try OfflineWritesDemoTests.sampleShop()
            defer { server.stop() }
            shop.editOnServer("ghi789") { $0.lastName = "Theirs" }
            let api = ["--api", server.baseURL.absoluteString]

            // When
            let synced = try await demo.run(["orders", "sync"] + api)
            let resolved = try await demo.run(["orders", "resolve", "ghi789", "--keep-mine"] + api)
            let again = try await demo.run(["orders", "sync"] + api)

            // Then
            #expect(synced.output.contains("Sent: create order 15ff669d"), "\(synced.output) \(synced.error)")
            #expect(
                synced.output.contains("Sent: update order abc123")
                    && synced.output.contains("delete order def456"))
            #expect(resolved.status == 0 && again.status == 0, "\(resolved.output) \(resolved.error)")
            // Each once; changes to different orders go together, in any order.
            #expect(
                shop.applied.sorted() == [
                    "DELETE /orders/def456", "POST /orders", "PUT /orders/abc123", "PUT /orders/ghi789",
                ])
            #expect(shop.storedOrders.first { $0.id == "ghi789" }?.lastName == "Mine")
            #expect(shop.storedOrders.first { $0.id == "abc123" }?.lastName == "Edited")
            #expect(shop.storedOrders.contains { $0.email == "old@example.com" })
        }
    }
#endif
