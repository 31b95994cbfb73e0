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

        @Test(
            "orders watch --refresh 3600 shows another device's order pushed by the shop, and says it is live"
        )
        func watchShowsAPushedOrder() async throws {
            // Given: a phone watching a shop that pushes its changes, polling too rarely to matter
            let (phone, laptop) = (DemoRunner(), DemoRunner())
            let shop = TestOrdersShop(orders: Order.samples)
            let server = try TestHTTPServer(responder: shop.respond)
            defer { server.stop() }
            let api = server.baseURL.absoluteString
            let watch = try WatchedProcess(phone, ["orders", "watch", "--api", api, "--refresh", "3600"])
            #expect(await watch.output(containing: "Live: changes made elsewhere show as they happen."))

            // When: the laptop creates an order
            var zed = OfflineWritesDemoTests.createArguments
            if let first = zed.firstIndex(of: "Eve") { zed[first] = "Zed" }
            let created = try await laptop.run(zed + ["--api", api])

            // Then: the phone shows it, pushed (a slow run may have reopened a silent stream)
            #expect(created.status == 0)
            #expect(await watch.output(containing: "Zed Elder"))
            #expect(await watch.closeInput() == 0)
            #expect(server.requests.contains { $0.hasPrefix("GET /events") })
        }

        @Test("against a shop without /events, orders watch polls as before after one attempt at the stream")
        func watchWithoutAStreamPolls() async throws {
            // Given: a shop with no event stream (404)
            let (phone, laptop) = (DemoRunner(), DemoRunner())
            let shop = TestOrdersShop(orders: Order.samples)
            let server = try TestHTTPServer { request in
                request.path.hasPrefix("/events") ? .status(404, body: "{}") : shop.respond(request)
            }
            defer { server.stop() }
            let api = server.baseURL.absoluteString
            let watch = try WatchedProcess(phone, ["orders", "watch", "--api", api, "--refresh", "1"])
            #expect(await watch.output(containing: "Changes made elsewhere: asked for every 1 s."))

            // When: the laptop creates an order
            var zed = OfflineWritesDemoTests.createArguments
            if let first = zed.firstIndex(of: "Eve") { zed[first] = "Zed" }
            _ = try await laptop.run(zed + ["--api", api])

            // Then: polled in, and the stream asked for once
            #expect(await watch.output(containing: "Zed Elder"))
            #expect(await watch.closeInput() == 0)
            #expect(server.requests.filter { $0.hasPrefix("GET /events") }.count == 1)
        }
    }
#endif
