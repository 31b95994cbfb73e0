import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// `demo orders watch` as a user meets it: left running while the API comes back and another
    /// demo writes the same file.
    @Suite("demo: orders watch")
    struct WatchDemoTests {
        @Test(
            "orders watch sends the waiting changes by itself once the API is up, shows them sent, shows another demo's order, and ends with 0 when its input closes"
        )
        func watchSyncsAndFollows() async throws {
            // Given: three orders created while the shop cannot be reached. It closes every
            // connection unanswered rather than being stopped (a port left free may be taken by
            // another test's server meanwhile), and not with 503s: each would count a failure,
            // and five, which full jitter can bring within a second, make the changes stuck
            // before the test brings the shop back.
            let demo = DemoRunner()
            let shop = TestOrdersShop(orders: Order.samples)
            shop.isUnreachable = true
            let server = try TestHTTPServer(responder: shop.respond)
            defer { server.stop() }
            let api = server.baseURL.absoluteString
            try await OfflineWritesDemoTests.queueCreates(3, in: demo.database)

            // When: the watch starts while the shop is down
            let watch = try WatchedProcess(demo, ["orders", "watch", "--api", api])
            #expect(await watch.output(containing: "3 changes waiting to be sent."))
            #expect(shop.writes.isEmpty)
            // ... and the shop can be reached
            shop.isUnreachable = false

            // Then: each change reaches the shop once, and the screen says nothing waits
            #expect(await watch.output(containing: OrdersSyncWording.nothingWaits))
            #expect(shop.storedOrders.count == Order.samples.count + 3)
            #expect(shop.storedOrders.filter { $0.email == "eve@example.com" }.count == 3)

            // When: another demo creates an order online
            var zed = OfflineWritesDemoTests.createArguments
            if let first = zed.firstIndex(of: "Eve") { zed[first] = "Zed" }
            let created = try await demo.run(zed + ["--api", api])
            #expect(created.status == 0)
            // Then
            #expect(await watch.output(containing: "Zed Elder"))

            // When: its input closes
            let status = await watch.closeInput()
            // Then
            #expect(status == 0)
        }
    }
#endif
