import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// `demo orders watch --refresh` on one device, and an order created on another (another
    /// database file, the same shop).
    @Suite("demo: orders watch, two devices")
    struct WatchTwoDevicesDemoTests {
        @Test("orders watch --refresh 1 shows an order another device created within its refresh")
        func watchShowsAnotherDevicesOrder() async throws {
            // Given: a phone watching, the shop up
            let (phone, laptop) = (DemoRunner(), DemoRunner())
            let shop = TestOrdersShop(orders: Order.samples)
            let server = try TestHTTPServer(responder: shop.respond)
            defer { server.stop() }
            let api = server.baseURL.absoluteString
            let watch = try WatchedProcess(phone, ["orders", "watch", "--api", api, "--refresh", "1"])
            #expect(await watch.output(containing: OrdersSyncWording.nothingWaits))

            // When: the laptop creates an order
            var zed = OfflineWritesDemoTests.createArguments
            if let first = zed.firstIndex(of: "Eve") { zed[first] = "Zed" }
            let created = try await laptop.run(zed + ["--api", api])

            // Then: the phone shows it, refreshed from the shop
            #expect(created.status == 0)
            #expect(await watch.output(containing: "Zed Elder"))
            #expect(await watch.closeInput() == 0)
        }
    }
#endif
