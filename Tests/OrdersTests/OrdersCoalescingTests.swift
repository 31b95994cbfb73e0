import Foundation
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
