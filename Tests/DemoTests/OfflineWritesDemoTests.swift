import Foundation
import MelodiesTesting
import OfflineKit
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// Offline writes as a user meets them: the built `demo`, a database file, the loopback shop.
    @Suite("demo: offline writes")
    struct OfflineWritesDemoTests {
        static let createArguments = [
            "orders", "create", "--first-name", "Eve", "--last-name", "Elder", "--email", "eve@example.com",
            "--street", "5 Elm St", "--city", "Boston", "--zip", "02101", "--card", "4111 1111 1111 1111",
            "--expires", "2031-01", "--cvv", "123", "--item", "Tea:2:3.50",
        ]

        /// The shop, holding the sample orders, behind a loopback server.
        static func sampleShop(_ responder: TestHTTPServer.Responder? = nil) throws -> (
            TestOrdersShop, TestHTTPServer
        ) {
            let shop = TestOrdersShop(orders: Order.samples)
            return (shop, try TestHTTPServer(responder: responder ?? shop.respond))
        }

        /// Creates `count` of Eve's orders in `file` as the demo does offline: kept, waiting.
        static func queueCreates(_ count: Int, in file: URL) async throws {
            let store = FallbackOrdersStore(
                api: OrdersAPI(client: APIClient(baseURL: URL(fileURLWithPath: "/"))),
                cache: OrdersSQLiteStore(database: try Database(at: file)), reachability: Offline())
            let order = try Arguments.parse(Self.createArguments, environment: [:])
            guard case .createOrder(let eve) = order.command else {
                throw UsageError(message: "not a create")
            }
            for _ in 0..<count {
                _ = try await store.createOrder(eve).value
            }
            #expect(try await store.syncStatus().value.waiting == count)
        }

        @Test("sync exits 1 while changes still wait, so a script can tell; 0 once the shop has them all")
        func syncExitCodeSaysWhetherAllWasSent() async throws {
            // Given: an order created while the shop cannot be reached
            let demo = DemoRunner()
            let shopDown = try ClosedPort()
            defer { withExtendedLifetime(shopDown) {} }
            let nowhere = shopDown.baseURL.absoluteString
            let (_, server) = try Self.sampleShop()
            defer { server.stop() }
            _ = try await demo.run(Self.createArguments + ["--api", nowhere])

            // When
            let down = try await demo.run(["orders", "sync", "--api", nowhere])
            let offline = try await demo.run(["orders", "sync", "--offline"])
            let up = try await demo.run(["orders", "sync", "--api", server.baseURL.absoluteString])

            // Then
            #expect(
                down.status == 1 && down.output.contains("1 change waiting to be sent."), "\(down.output)")
            #expect(offline.status == 1)
            #expect(up.status == 0 && up.output.contains("Nothing waits"), "\(up.output)")
        }

        @Test("an order shown by the id printed offline is found online after the sync, under the shop's id")
        func localIDShownOnlineAfterSync() async throws {
            // Given: an order created offline, its id as printed, then sent
            let demo = DemoRunner()
            let (shop, server) = try Self.sampleShop()
            defer { server.stop() }
            let api = ["--api", server.baseURL.absoluteString]
            let created = try await demo.run(Self.createArguments + ["--offline"])
            let local =
                created.output.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? ""
            let synced = try await demo.run(["orders", "sync"] + api)

            // When: shown online by the id printed offline
            let shown = try await demo.run(["orders", "show", local] + api)

            // Then: the shop's copy, asked for by the shop's id
            #expect(synced.status == 0, "\(synced.output)")
            #expect(shown.status == 0 && shown.output.contains("Eve"), "\(shown.output)\(shown.error)")
            let apiID = try #require(shop.storedOrders.first { $0.email == "eve@example.com" }?.id)
            #expect(apiID != local && shown.output.contains(apiID), "\(shown.output)")
        }

        @Test("a stuck change and a damaged one are shown as such, each with its line, never as synced")
        func stuckAndDamagedShown() async throws {
            // Given: two orders created offline; one failed too often, the other's row damaged
            let demo = DemoRunner()
            let shopDown = try ClosedPort()
            defer { withExtendedLifetime(shopDown) {} }
            let nowhere = shopDown.baseURL.absoluteString
            let first = try await demo.run(Self.createArguments + ["--api", nowhere])
            let second = try await demo.run(Self.createArguments + ["--api", nowhere])
            let ids = [first, second].compactMap {
                $0.output.split(separator: "\n").first?.split(separator: " ").last
            }
            try #require(ids.count == 2)
            do {
                let database = try Database(at: demo.database)
                _ = await PromiseExpectations.value(
                    of: database.write { connection in
                        try connection.execute(
                            "UPDATE outbox SET stuck = 1, last_error = 'HTTP 500: boom' WHERE local_id = ?",
                            [.text(String(ids[0]))])
                        try connection.execute(
                            "UPDATE outbox SET method = 'FOO' WHERE local_id = ?", [.text(String(ids[1]))])
                    })
            }

            // When
            let listed = try await demo.run(["orders", "--offline"])

            // Then
            let lines = listed.output.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix(ids[0]) && $0.hasSuffix("stuck") }, "\(listed.output)")
            #expect(lines.contains { $0.hasPrefix(ids[1]) && $0.hasSuffix("damaged") }, "\(listed.output)")
            #expect(
                listed.output.contains("the shop failed it too often: HTTP 500: boom"))
            #expect(
                listed.output.contains("Order \(ids[1]): This change cannot be read and will not be sent"))
            #expect(listed.output.contains("1 change failed by the shop too often: retry or discard."))
            #expect(listed.output.contains("1 change cannot be read: discard."))
        }

        @Test("create offline, see it waiting, sync when the shop is up, and the shop lists it")
        func offlineCreateThenSync() async throws {
            // Given
            let demo = DemoRunner()
            let shopDown = try ClosedPort()
            defer { withExtendedLifetime(shopDown) {} }
            let nowhere = shopDown.baseURL.absoluteString
            let (shop, server) = try Self.sampleShop()
            defer { server.stop() }
            let api = server.baseURL.absoluteString

            // When: created while the shop cannot be reached
            let created = try await demo.run(Self.createArguments + ["--api", nowhere])
            let listed = try await demo.run(["orders", "--api", nowhere])

            // Then: it says so, and waits
            #expect(created.status == 0, "\(created.error)")
            #expect(
                created.output.contains("Saved on this device; it will be sent when the shop can be reached.")
            )
            let id = try #require(created.output.split(separator: "\n").first?.split(separator: " ").last)
            let row = listed.output.split(separator: "\n").first { $0.hasPrefix(id) }
            #expect(row?.hasSuffix("waiting") == true, "\(listed.output)")
            #expect(listed.output.contains("1 change waiting to be sent."))
            #expect(shop.applied.isEmpty)

            // When: the shop is up
            let synced = try await demo.run(["orders", "sync", "--api", api])
            let online = try await demo.run(["orders", "--api", api])

            // Then
            #expect(synced.status == 0, "\(synced.error)")
            #expect(synced.output.contains("Sent: create order \(id), now srv-1"))
            #expect(synced.output.contains("Nothing waits: the shop has every change."))
            #expect(shop.storedOrders.contains { $0.email == "eve@example.com" && $0.id == "srv-1" })
            #expect(shop.applied.count == 1)
            #expect(
                online.output.split(separator: "\n").contains {
                    $0.hasPrefix("srv-1") && $0.hasSuffix("synced")
                })
            #expect(!online.output.contains("waiting"))
        }

        @Test("a delete the shop refuses: sync exits 1 and says why; discard brings the order back")
        func refusedDelete() async throws {
            // Given
            let demo = DemoRunner()
            let shopDown = try ClosedPort()
            defer { withExtendedLifetime(shopDown) {} }
            let nowhere = shopDown.baseURL.absoluteString
            let (shop, server) = try Self.sampleShop()
            defer { server.stop() }
            shop.refuse("DELETE /orders/abc123", status: 409, body: #"{"error": "already shipped"}"#)
            _ = try await demo.run(["orders", "--api", nowhere])

            // When
            let deleted = try await demo.run(["orders", "delete", "abc123", "--api", nowhere])
            let synced = try await demo.run(["orders", "sync", "--api", server.baseURL.absoluteString])
            let discarded = try await demo.run(["orders", "discard", "abc123", "--offline"])
            let listed = try await demo.run(["orders", "--api", server.baseURL.absoluteString])

            // Then
            #expect(deleted.output.contains("Saved on this device"))
            #expect(synced.status == 1)
            #expect(synced.output.contains("Refused: delete order abc123: HTTP 409: already shipped"))
            #expect(synced.output.contains("1 change refused by the shop: retry or discard."))
            #expect(discarded.status == 0, "\(discarded.error)")
            #expect(listed.output.contains("Amy Apple"))
            #expect(!listed.output.contains("refused"))
        }

    }

    /// Holds the shop's answer to its `number`th write until the test has killed the client, so the
    /// kill lands there: after the shop applied it (its answer never read), or before.
    final class HeldRequest: @unchecked Sendable {
        // `@unchecked Sendable` is sound: `writes` is only touched while holding `lock`; the
        // semaphores are thread-safe.
        let number: Int
        private let afterApplying: Bool
        private let lock = NSLock()
        private var writes = 0
        private let held = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)

        init(number: Int, afterApplying: Bool) {
            self.number = number
            self.afterApplying = afterApplying
        }

        func respond(_ request: TestHTTPServer.Request, _ shop: TestOrdersShop) -> TestHTTPServer.Reply {
            let isHeld =
                request.method != "GET"
                && lock.withLock {
                    writes += 1
                    return writes == number
                }
            guard isHeld else { return shop.respond(request) }
            let reply: TestHTTPServer.Reply = afterApplying ? shop.respond(request) : .reset
            held.signal()
            // Long: the test always releases it; this only bounds a test that failed in between.
            _ = released.wait(timeout: .now() + 300)
            return reply
        }

        /// Waits until the held write arrived (300 s at most: a loaded run may take long to start
        /// the demo), then kills `process` (`SIGKILL`) from the same thread, at once: a kill after
        /// an `await` waits for a turn on the cooperative pool, which a loaded run can keep busy
        /// with other suites' work for longer than the write is held. Returns whether the write
        /// arrived; the process is killed either way.
        func killWhenHeld(_ process: ChildProcess) async -> Bool {
            let identifier = process.processIdentifier
            return await DemoRunner.offThePool {
                let reached = self.held.wait(timeout: .now() + 300) == .success
                kill(identifier, SIGKILL)
                return reached
            }
        }

        func release() {
            released.signal()
        }
    }

#endif
