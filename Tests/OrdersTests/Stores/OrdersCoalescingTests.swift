import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// Changes of one order made before they were sent, as the orders store queues them.
@Suite("Orders: changes merged before they are sent")
struct OrdersCoalescingTests {
    @Test("an order created and deleted offline is never sent, and is gone here")
    func createdThenDeletedOffline() async throws {
        // Given: the shop's orders kept here, then an order created offline
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        let created = try #require(
            await PromiseExpectations.value(of: device.offline.createOrder(validOrder())))

        // When
        _ = await PromiseExpectations.value(of: device.offline.deleteOrder(id: created.id ?? ""))
        let status = await PromiseExpectations.value(of: device.online.syncStatus())
        let report = await PromiseExpectations.value(of: device.online.sync())

        // Then
        #expect(status == .empty)
        #expect(report?.sent.isEmpty == true)
        #expect(device.shop.applied.isEmpty)
        #expect(Set(await device.listing(device.offline).keys) == ["shop-amy", "shop-bob"])
        #expect(await device.rowsChangedHere() == 0)
    }

    @Test(
        "an order edited twice: after the shop took the first change, the list still shows the second, which waits"
    )
    func laterChangeStaysShownAfterTheFirstIsDelivered() async throws {
        // Given: a first edit tried once (so the second is kept apart), then a second edit
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        var amy = DeviceAndShop.amy
        amy.version = "1"
        amy.lastName = "First"
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(amy))
        device.shop.isDown = true
        _ = await PromiseExpectations.value(of: device.online.sync())
        device.shop.isDown = false
        amy.firstName = "Second"
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(amy))
        device.shop.refuse(
            matching: { String(decoding: $0.body, as: UTF8.self).contains("Second") }, status: 500,
            body: #"{"error": "not now"}"#)
        device.clock.advance(300)

        // When: the first change goes, the second fails
        let report = await PromiseExpectations.value(of: device.online.sync())

        // Then: the shop has the first; this device still shows the second, waiting
        #expect(report?.sent.count == 1)
        #expect(device.shop.storedOrders.first { $0.id == "shop-amy" }?.lastName == "First")
        let here = await device.listing(device.offline)["shop-amy"]
        #expect(here?.firstName == "Second" && here?.lastName == "First")
        #expect(
            await PromiseExpectations.value(of: device.offline.syncStatus())?.state(of: "shop-amy")
                == .pending)
    }

    @Test("a change made after an online update whose answer was lost is sent after it, not merged into it")
    func changeAfterLostAnswerStaysApart() async throws {
        // Given: Amy's update applied by the shop, its answer lost, so it waits under its key
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        device.shop.loseAnswer(to: "PUT /orders/shop-amy", with: .reset)
        var amy = DeviceAndShop.amy
        amy.lastName = "Appleton"
        _ = await PromiseExpectations.value(of: device.online.updateOrder(amy))

        // When: changed again, offline, then synced
        amy.firstName = "Amelia"
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(amy))
        let waiting = await PromiseExpectations.value(of: device.online.syncStatus())?.waiting
        _ = await PromiseExpectations.value(of: device.online.sync())

        // Then: two changes; the shop applied the first once and then the second
        #expect(waiting == 2)
        #expect(device.shop.applied.count == 2)
        let stored = device.shop.storedOrders.first { $0.id == "shop-amy" }
        #expect(stored?.firstName == "Amelia" && stored?.lastName == "Appleton")
    }
}
