import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// What the orders store does with answers that are not a clean yes or no: a create applied but
/// answered unreadably, a create the shop keeps failing.
@Suite("Orders: delivery faults")
struct OrdersDeliveryFaultsTests {
    @Test(
        "a create the shop applied but answered unreadably is not delivered: it waits under its key, no failure counted, and the next answer delivers it once"
    )
    func unreadableAnswerToCreate() async throws {
        // Given: an order created offline; the shop will make it and answer with a page
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        let created = try #require(
            await PromiseExpectations.value(
                of: device.offline.createOrder(validOrder(email: "eve@example.com"))))
        device.shop.garble("POST /orders")

        // When
        let first = await PromiseExpectations.value(of: device.online.sync())

        // Then: nothing counted as sent, nothing refused, the change waits with no failure
        #expect(first?.sent.isEmpty == true)
        #expect(first?.refused.isEmpty == true && first?.stuck.isEmpty == true)
        #expect(first?.stoppedBecause == .notTheAPI)
        let status = await PromiseExpectations.value(of: device.online.syncStatus())
        #expect(status?.waiting == 1 && status?.held == 0)

        // When: the shop answers properly again; the device's clock has not moved, so a counted
        // failure (which waits its backoff) would keep the change back
        device.shop.allow("POST /orders")
        let second = await PromiseExpectations.value(of: device.online.sync())
        let listed = await device.listing(device.online)

        // Then: delivered, applied once (the same key), listed once under the shop's id
        #expect(second?.sent.map(\.localID) == [created.id ?? ""])
        #expect(device.shop.applied.count == 1)
        #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty)
        let eves = listed.values.filter { $0.email == "eve@example.com" }
        #expect(eves.count == 1)
        #expect(eves.first?.id?.hasPrefix("srv-") == true)
    }

    @Test(
        "a 2xx whose JSON is not an order (a proxy's {\"ok\": true}, an order without its id or version) delivers nothing: each change waits",
        arguments: [#"{"ok": true}"#, #"[]"#])
    func jsonThatIsNoOrder(body: String) async throws {
        // Given: an order listed from the shop and edited offline, and one created offline
        let device = try DeviceAndShop()
        let listed = await device.listing(device.online)
        var edited = try #require(listed.values.first)
        edited.email = "changed@example.com"
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(edited))
        _ = await PromiseExpectations.value(
            of: device.offline.createOrder(validOrder(email: "eve@example.com")))
        device.shop.refuse(matching: { $0.method != "GET" }, status: 200, body: body)

        // When
        let report = await PromiseExpectations.value(of: device.online.sync())

        // Then
        #expect(report?.sent.isEmpty == true)
        #expect(report?.stoppedBecause == .notTheAPI)
        #expect(await PromiseExpectations.value(of: device.online.syncStatus())?.waiting == 2)
    }

    @Test(
        "a create the shop fails every time is stuck after five syncs: the other orders go, and it can be discarded"
    )
    func createFailingForever() async throws {
        // Given: two orders created offline, the first always answered 500
        let device = try DeviceAndShop()
        let failing = try #require(
            await PromiseExpectations.value(
                of: device.offline.createOrder(validOrder(email: "one@example.com"))))
        _ = await PromiseExpectations.value(
            of: device.offline.createOrder(validOrder(email: "two@example.com")))
        device.shop.refuse(
            matching: { String(decoding: $0.body, as: UTF8.self).contains("one@example.com") }, status: 500,
            body: #"{"error": "boom"}"#)

        // When: syncing as the waits allow
        var reports: [OutboxSyncReport] = []
        for _ in 0..<5 {
            reports += [await PromiseExpectations.value(of: device.online.sync())].compactMap { $0 }
            device.clock.advance(300)
        }

        // Then
        #expect(reports.last?.stuck.map(\.localID) == [failing.id ?? ""])
        let emails = device.shop.storedOrders.map(\.email)
        #expect(emails.contains("two@example.com") && !emails.contains("one@example.com"))
        let status = await PromiseExpectations.value(of: device.online.syncStatus())
        #expect(status?.stuck == 1 && status?.waiting == 0)
        guard case .stuck? = status?.state(of: failing.id ?? "") else {
            Issue.record("not stuck: \(String(describing: status))")
            return
        }

        // When: discarded
        let dropped = await PromiseExpectations.value(of: device.online.discard(id: failing.id ?? ""))

        // Then
        #expect(dropped?.count == 1)
        let listed = await device.listing(device.online)
        #expect(listed[failing.id ?? ""] == nil && listed.values.contains { $0.email == "two@example.com" })
    }
}
