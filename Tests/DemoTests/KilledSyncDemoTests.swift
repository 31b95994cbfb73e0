import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    @Suite("demo: sync killed")
    struct KilledSyncDemoTests {
        @Test("sync killed (kill -9) at any point and run again: every change reaches the shop exactly once")
        func killedMidSync() async throws {
            var lost = 0
            var duplicated = 0
            for round in 0..<6 {
                // Given: 8 orders created offline, and a shop that holds its `round % 8 + 1`th write
                let demo = DemoRunner()
                try await OfflineWritesDemoTests.queueCreates(8, in: demo.database)
                let shop = TestOrdersShop(orders: Order.samples)
                let held = HeldRequest(number: round % 8 + 1, afterApplying: round % 2 == 0)
                let server = try TestHTTPServer(responder: { held.respond($0, shop) })
                defer { server.stop() }
                let api = server.baseURL.absoluteString

                // When: killed while the shop holds that write, then run again
                let process = try demo.start(["orders", "sync", "--api", api])
                let reached = await held.killWhenHeld(process)
                await DemoRunner.waitForExit(process)
                held.release()
                let again = try await demo.run(["orders", "sync", "--api", api])

                // Then
                #expect(reached, "round \(round): the sync never reached write \(held.number)")
                #expect(process.terminatedBySignal)
                #expect(again.status == 0, "\(again.error)")
                let created = shop.storedOrders.filter { $0.email == "eve@example.com" }.count
                lost += max(0, 8 - created)
                duplicated += max(0, created - 8)
                #expect(created == 8, "round \(round)")
                #expect(shop.applied.count == 8)
                #expect(again.output.contains("Nothing waits"))
            }
            #expect(lost == 0 && duplicated == 0)
        }

        @Test(
            "resolve killed (kill -9) while the shop holds the change it sends, and sync run again: sent once"
        )
        func killedMidResolve() async throws {
            for afterApplying in [false, true] {
                // Given: a conflict (the shop's first write answers 412), and a shop that holds the
                // second write: the change `resolve --keep-mine` sends
                let demo = DemoRunner()
                let shop = TestOrdersShop(orders: Order.samples)
                let held = HeldRequest(number: 2, afterApplying: afterApplying)
                let server = try TestHTTPServer(responder: { held.respond($0, shop) })
                defer { server.stop() }
                let api = ["--api", server.baseURL.absoluteString]
                _ = try await demo.run(["orders"] + api)
                _ = try await demo.run(["orders", "update", "abc123", "--last-name", "Mine", "--offline"])
                shop.editOnServer("abc123") { $0.lastName = "Theirs" }
                let synced = try await demo.run(["orders", "sync"] + api)

                // When: killed while the shop holds the resolved change, then synced again
                let process = try demo.start(["orders", "resolve", "abc123", "--keep-mine"] + api)
                let reached = await held.killWhenHeld(process)
                await DemoRunner.waitForExit(process)
                held.release()
                let again = try await demo.run(["orders", "sync"] + api)

                // Then: mine is in the shop, applied once; nothing waits, no conflict is left
                let label = afterApplying ? "killed after the shop applied it" : "killed before"
                #expect(synced.output.contains("Conflict: update order abc123"), "\(label): \(synced.output)")
                #expect(reached, "\(label): resolve never sent the change")
                #expect(process.terminatedBySignal, "\(label)")
                #expect(
                    again.status == 0 && again.output.contains("Nothing waits"), "\(label): \(again.output)")
                #expect(shop.storedOrders.first { $0.id == "abc123" }?.lastName == "Mine", "\(label)")
                #expect(
                    shop.applied.filter { $0.hasPrefix("PUT /orders/abc123") }.count == 1,
                    "\(label): \(shop.applied)")
            }
        }
    }
#endif
