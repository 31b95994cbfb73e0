import Foundation
import OrdersTesting
import Testing

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// Changes that keep going when the demo does not: `sync --hand-off` spools them and exits
    /// without a request, `transfers run` (the system's daemon, here) sends them, and the next
    /// `sync` records the answers as its own.
    @Suite("demo: hand-off")
    struct HandOffDemoTests {
        typealias Shop = CustomersDemoTests.Shop

        @Test("sync --hand-off makes no request; transfers run sends; sync records each once, children after")
        func handOffThenRecorded() async throws {
            // Given: offline, Eve with an order of hers, and two orders of no customer
            let demo = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }
            let (_, eve) = try await CustomersDemoTests.eve(demo)
            _ = try await CustomersDemoTests.order(demo, customer: eve)
            for _ in 0..<2 {
                _ = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"])
            }

            // When: handed off, then the service runs
            let handed = try await demo.run(["sync", "--hand-off"] + shop.api)
            let requestsAfterHandOff = shop.server.requests.count
            let status = try await demo.run(["status", "--offline"])
            let ran = try await demo.run(["transfers", "run"])
            let fromService = shop.server.requests.count

            // Then: three changes (Eve's order waits for her create) went through the service alone
            #expect(handed.status == 0, "\(handed.output)\(handed.error)")
            #expect(handed.output.contains("3 changes handed to the transfer service"), "\(handed.output)")
            #expect(handed.output.contains("1 change still waits"), "\(handed.output)")
            #expect(requestsAfterHandOff == 0)
            #expect(
                status.output.components(separatedBy: "with the transfer service").count == 4,
                "\(status.output)")
            #expect(ran.status == 0 && ran.output.hasPrefix("Sent 3 requests"), "\(ran.output)\(ran.error)")
            #expect(fromService == 3)

            // When: the demo syncs, twice
            let synced = try await demo.run(["sync"] + shop.api)
            let again = try await demo.run(["sync"] + shop.api)

            // Then: Eve's create recorded, her order sent naming the shop's id; nothing sent again
            #expect(synced.status == 0, "\(synced.output)\(synced.error)")
            #expect(
                synced.output.split(separator: "\n").filter { $0.hasPrefix("Sent:") }.count == 4,
                "\(synced.output)")
            #expect(shop.server.requests.count == fromService + 1)
            #expect(again.status == 0 && again.output.contains("Nothing waits"), "\(again.output)")
            #expect(shop.server.requests.count == fromService + 1)
            let eveAtTheShop = shop.customers.resources(as: Customer.self).first?.id
            #expect(shop.customers.applied == ["POST /customers"])
            #expect(shop.orders.applied == ["POST /orders", "POST /orders", "POST /orders"])
            #expect(
                shop.orders.storedOrders.filter { $0.customerID != nil }.map(\.customerID) == [eveAtTheShop])
        }

        @Test("transfers run with nothing handed off says so and exits 0")
        func nothingToRun() async throws {
            // Given a new database / When
            let ran = try await DemoRunner().run(["transfers", "run"])
            // Then
            #expect(
                ran.status == 0 && ran.output == "Nothing waits in the transfer service.\n", "\(ran.output)")
        }
    }
#endif

#if SUBPROCESSES
    @testable import Demo

    extension HandOffDemoTests {
        @Test("--hand-off goes with sync and orders sync only")
        func handOffOnlyWithSync() throws {
            // Given / When
            let all = try Arguments.parse(["sync", "--hand-off"], environment: [:])
            let orders = try Arguments.parse(["orders", "sync", "--hand-off"], environment: [:])
            // Then
            #expect(all.handOff && orders.handOff)
            #expect(throws: UsageError.self) {
                try Arguments.parse(["orders", "--hand-off"], environment: [:])
            }
        }
    }
#endif
