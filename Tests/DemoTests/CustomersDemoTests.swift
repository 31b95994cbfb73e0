import Foundation
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// Related records as a user meets them: a customer and orders naming it, made with the shop
    /// out of reach, then sent with `demo sync` to a shop that refuses an order naming a customer
    /// it does not have.
    @Suite("demo: customers")
    struct CustomersDemoTests {
        /// The shop's orders and customers behind one loopback server.
        final class Shop: Sendable {
            let customers = TestResourceAPI.customers()
            let orders: TestOrdersShop
            let server: TestHTTPServer

            init() throws {
                let customers = customers
                let orders = TestOrdersShop(orders: Order.samples, customers: customers)
                self.orders = orders
                server = try TestHTTPServer { request in
                    request.path.hasPrefix("/customers")
                        ? customers.respond(request) : orders.respond(request)
                }
            }

            var api: [String] { ["--api", server.baseURL.absoluteString] }
        }

        /// Eve made offline with `customers create`, and her identifier as the demo printed it.
        static func eve(_ demo: DemoRunner) async throws -> (DemoRunner.Run, String) {
            let created = try await demo.run([
                "customers", "create", "--name", "Eve Elder", "--email", "eve@example.com", "--offline",
            ])
            let id = created.output.split(separator: " ").dropFirst(2).first.map(String.init) ?? ""
            return (created, id)
        }

        /// Eve and her order made offline, and a `demo sync` the shop answered by refusing Eve:
        /// her id, the order's, and what the sync printed.
        static func refusedEve(_ demo: DemoRunner, _ shop: Shop) async throws -> (
            eve: String, order: String, synced: DemoRunner.Run
        ) {
            let (_, eve) = try await Self.eve(demo)
            let order = try await Self.order(demo, customer: eve)
            shop.customers.refuse("POST /customers", status: 422, body: #"{"error": "email taken"}"#)
            return (eve, order, try await demo.run(["sync"] + shop.api))
        }

        /// An order of Eve's made offline, naming customer `id`; its identifier.
        static func order(_ demo: DemoRunner, customer id: String) async throws -> String {
            let run = try await demo.run(
                OfflineWritesDemoTests.createArguments + ["--customer", id, "--offline"])
            return run.output.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? ""
        }

        @Test(
            "orders --customer lists the customer's three orders by its local id offline, and by either id after the sync"
        )
        func ordersOfACustomer() async throws {
            // Given: Eve with three orders and Fay with two, made offline
            let demo = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }
            let (_, eve) = try await Self.eve(demo)
            let fay =
                try await demo.run([
                    "customers", "create", "--name", "Fay Field", "--email", "fay@example.com", "--offline",
                ]).output.split(separator: " ").dropFirst(2).first.map(String.init) ?? ""
            var eves: [String] = []
            for _ in 0..<3 { eves.append(try await Self.order(demo, customer: eve)) }
            for _ in 0..<2 { _ = try await Self.order(demo, customer: fay) }

            // When: listed and counted by Eve's local id, then again after the sync, by both ids
            let before = try await demo.run(["orders", "--customer", eve, "--offline"])
            let counted = try await demo.run(["orders", "--customer", eve, "--count", "--offline"])
            let synced = try await demo.run(["sync"] + shop.api)
            let eveAtTheShop =
                shop.customers.resources(as: Customer.self).first { $0.name == "Eve Elder" }?.id ?? ""
            let byLocalID = try await demo.run(["orders", "--customer", eve, "--offline"])
            let byShopID = try await demo.run(["orders", "list", "--customer", eveAtTheShop, "--offline"])
            let all = try await demo.run(["orders", "--count", "--offline"])

            // Then: Eve's three orders each time, under their shop ids after the sync; Fay's never
            #expect(before.status == 0, "\(before.output)\(before.error)")
            #expect(before.output.contains("Orders (3)"), "\(before.output)")
            #expect(eves.allSatisfy { before.output.contains($0) }, "\(before.output)")
            #expect(before.output.contains("3 changes waiting to be sent"), "\(before.output)")
            #expect(counted.output == "3 orders\n", "\(counted.output)")
            #expect(synced.status == 0, "\(synced.output)\(synced.error)")
            #expect(!eveAtTheShop.isEmpty && eveAtTheShop != eve)
            for listed in [byLocalID, byShopID] {
                #expect(
                    listed.status == 0 && listed.output.contains("Orders (3)"),
                    "\(listed.output)\(listed.error)")
                #expect(!eves.contains { listed.output.contains($0) }, "still local ids: \(listed.output)")
            }
            // The same rows; the line saying how old the copy is may tick between the two runs.
            let rows = { (output: String) in output.split(separator: "\n").filter { !$0.hasPrefix("Showing") }
            }
            #expect(rows(byLocalID.output) == rows(byShopID.output))
            #expect(all.output == "\(Order.samples.count + 5) orders\n", "\(all.output)")
        }

        @Test(
            "a customer and two orders made offline: demo sync sends the customer, then the orders naming its id"
        )
        func customerThenOrders() async throws {
            // Given: Eve and two of her orders, made with the shop out of reach
            let demo = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }
            let (created, eve) = try await Self.eve(demo)
            let first = try await Self.order(demo, customer: eve)
            _ = try await Self.order(demo, customer: eve)
            let before = try await demo.run(["orders", "show", first, "--offline"])

            // When
            let synced = try await demo.run(["sync"] + shop.api)
            let after = try await demo.run(["orders", "show", first, "--offline"])
            let listed = try await demo.run(["customers", "--offline"])

            // Then: one customer at the shop, two orders naming the shop's id for her
            #expect(created.status == 0 && created.output.hasPrefix("Created customer \(eve)"), "\(created)")
            #expect(before.output.contains("Customer  Eve Elder (\(eve))"), "\(before.output)")
            #expect(before.output.contains("Waiting for customer Eve Elder"), "\(before.output)")
            #expect(synced.status == 0, "\(synced.output)\(synced.error)")
            let customers = shop.customers.resources(as: Customer.self)
            #expect(customers.map(\.name) == ["Eve Elder"])
            let named = shop.orders.storedOrders.filter { $0.customerID != nil }
            #expect(named.count == 2 && named.allSatisfy { $0.customerID == customers.first?.id })
            #expect(after.output.contains("Customer  Eve Elder (cus-1)"), "\(after.output)")
            #expect(!after.output.contains("Waiting for customer"), "\(after.output)")
            #expect(listed.output.contains("cus-1") && listed.output.contains("synced"), "\(listed.output)")
        }

        @Test("orders sync alone passes over an order whose customer the shop does not have yet")
        func ordersWaitForTheirCustomer() async throws {
            // Given
            let demo = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }
            let (_, eve) = try await Self.eve(demo)
            _ = try await Self.order(demo, customer: eve)

            // When
            let synced = try await demo.run(["orders", "sync"] + shop.api)
            let all = try await demo.run(["sync"] + shop.api)

            // Then: nothing refused, the order sent once its customer was
            #expect(synced.status == 1 && synced.output.contains("1 change waiting"), "\(synced.output)")
            #expect(!synced.output.contains("Refused"), "\(synced.output)")
            #expect(
                all.status == 0 && all.output.contains("create customer \(eve), now cus-1"), "\(all.output)")
            #expect(shop.orders.storedOrders.filter { $0.customerID == "cus-1" }.count == 1)
        }

        @Test("an order whose customer the shop refused says so, naming the customer and the reason")
        func refusedCustomerHoldsItsOrder() async throws {
            // Given: Eve and her order made offline; the shop refuses Eve
            let demo = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }

            // When
            let (eve, order, synced) = try await Self.refusedEve(demo, shop)
            let shown = try await demo.run(["orders", "show", order, "--offline"])

            // Then: the order was not sent, and says which customer holds it and why
            #expect(synced.status == 1 && synced.output.contains("Refused: create customer \(eve)"))
            #expect(shop.orders.applied.isEmpty)
            #expect(
                shown.output.contains(
                    "Waiting for customer Eve Elder (\(eve)), which the shop refused (HTTP 422: email taken)."
                ),
                "\(shown.output)")
        }

        @Test(
            "a customer the command line cannot make, or an order naming no customer, is refused",
            arguments: [
                (["customers", "create", "--name", "Eve"], 2),
                (["customers", "create", "--email", "e@x", "--name", " "], 2),
                (["customers", "create", "--name", "Eve", "--email", "e@x", "--city", "Boston"], 2),
                (["orders", "--name", "Eve"], 2),
                (OfflineWritesDemoTests.createArguments + ["--customer", "nobody"], 2),
                (OfflineWritesDemoTests.createArguments + ["--customer", ""], 2),
                (OfflineWritesDemoTests.createArguments + ["--customer", "  "], 2),
                (["orders", "update", "abc123", "--customer", ""], 2),
                (["customers", "retry"], 2),
                (["customers", "discard", " "], 2),
            ] as [([String], Int32)])
        func refused(arguments: [String], status: Int32) async throws {
            // When
            let run = try await DemoRunner().run(arguments + ["--offline"])

            // Then: one line saying what is wrong
            #expect(run.status == status, "\(run.output)\(run.error)")
            #expect(
                run.error.split(separator: "\n").count == 1 && run.error.hasPrefix("demo: "), "\(run.error)")
        }

        @Test("orders watch sends a customer made offline, then the order naming it, by itself")
        func watchSendsCustomersFirst() async throws {
            // Given: Eve and her order made offline
            let demo = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }
            let (_, eve) = try await Self.eve(demo)
            _ = try await Self.order(demo, customer: eve)

            // When: the watch runs with the shop up
            let watch = try WatchedProcess(demo, ["orders", "watch"] + shop.api)
            let sent = await watch.output(containing: OrdersSyncWording.nothingWaits)
            let status = await watch.closeInput()

            // Then: both reached the shop, the order naming the shop's id for Eve
            #expect(sent && status == 0)
            #expect(shop.customers.resources(as: Customer.self).map(\.name) == ["Eve Elder"])
            #expect(shop.orders.storedOrders.contains { $0.customerID == "cus-1" })
        }

        @Test("a customer the shop refused is retried, or discarded with the orders it held named")
        func refusedCustomerIsRetriedOrDiscarded() async throws {
            // Given: Eve and her order made offline; the shop refuses Eve once
            let demo = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }
            let (eve, order, refused) = try await Self.refusedEve(demo, shop)

            // When: retried once the shop takes her
            shop.customers.allow("POST /customers")
            let retried = try await demo.run(["customers", "retry", eve] + shop.api)

            // Then: the message named the customer, the order it held, and what to do; the retry
            // sent both
            #expect(refused.status == 1)
            #expect(
                refused.output.contains("Customer \(eve) was refused by the shop (HTTP 422: email taken).")
                    && refused.output.contains("It holds back order \(order).")
                    && refused.output.contains("'demo customers retry \(eve)'")
                    && refused.output.contains("'demo customers discard \(eve)'"),
                "\(refused.output)")
            #expect(retried.status == 0, "\(retried.output)\(retried.error)")
            #expect(shop.customers.resources(as: Customer.self).map(\.name) == ["Eve Elder"])
            #expect(shop.orders.storedOrders.contains { $0.customerID == "cus-1" })
        }

        @Test(
            "discarding a refused customer names the orders it held, which the next sync holds to be discarded"
        )
        func refusedCustomerDiscarded() async throws {
            // Given: Eve and her order made offline, Eve refused by the shop
            let demo = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }
            let (eve, order, _) = try await Self.refusedEve(demo, shop)

            // When: Eve discarded, the next sync holds her order, which is then discarded too
            let discarded = try await demo.run(["customers", "discard", eve, "--offline"])
            let holding = try await demo.run(["sync"] + shop.api)
            let droppedOrder = try await demo.run(["orders", "discard", order, "--offline"])
            let synced = try await demo.run(["sync"] + shop.api)

            // Then
            #expect(discarded.status == 0, "\(discarded.output)\(discarded.error)")
            #expect(
                discarded.output.contains("Discarded 1 change to customer \(eve).")
                    && discarded.output.contains(
                        "Order \(order) named customer \(eve): the next sync holds it"),
                "\(discarded.output)")
            #expect(holding.status == 1 && holding.output.contains("1 change refused"), "\(holding.output)")
            #expect(droppedOrder.status == 0, "\(droppedOrder.output)\(droppedOrder.error)")
            #expect(synced.status == 0, "\(synced.output)\(synced.error)")
            #expect(shop.customers.resources(as: Customer.self).isEmpty && shop.orders.applied.isEmpty)
        }
    }
#endif
