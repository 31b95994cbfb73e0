import Foundation
import OfflineKit
import OrdersTesting
import Testing

@Suite("Offline writes")
struct OfflineWritesTests {
    @Test(
        "changes made while the shop is down are sent once each, with their keys, when it is up; a create and its update go as one create"
    )
    func createUpdateDeleteThenSync() async throws {
        // Given: the shop's orders listed once, then the network gone
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        var amy = DeviceAndShop.amy
        amy.email = "amy.new@example.com"

        // When: a create, an update of it, an update and a delete, all offline
        let created = await PromiseExpectations.value(of: device.offline.createOrder(validOrder()))
        var changed = try #require(created)
        changed.firstName = "Caroline"
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(changed))
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(amy))
        _ = await PromiseExpectations.value(of: device.offline.deleteOrder(id: "shop-bob"))
        let keys = await device.keys()
        let localID = try #require(created?.id)

        // Then: nothing reached the shop, and the listing shows the changes as they will be
        #expect(device.shop.applied.isEmpty)
        let offlineList = await device.listing(device.offline)
        #expect(Set(offlineList.keys) == [localID, "shop-amy"])
        #expect(offlineList[localID]?.firstName == "Caroline")
        #expect(offlineList["shop-amy"]?.email == "amy.new@example.com")
        let waiting = await PromiseExpectations.value(of: device.online.syncStatus())
        #expect(waiting?.waiting == 3)
        #expect(waiting?.state(of: localID) == .pending)

        // When: the shop is reachable
        let report = await PromiseExpectations.value(of: device.online.sync())

        // Then: one POST carrying the update, the PUT, the DELETE (three orders: in any order)
        try #require(keys.count == 3 && Set(keys).count == 3)
        #expect(
            Set(device.shop.writes.map(\.description)) == [
                "POST /orders \(keys[0])", "PUT /orders/shop-amy \(keys[1])",
                "DELETE /orders/shop-bob \(keys[2])",
            ])
        #expect(report?.sent.count == 3)
        #expect(report?.newIDs == [localID: "srv-1"])
        #expect(report?.waiting == 0)
        let onlineList = await device.listing(device.online)
        #expect(Set(onlineList.keys) == ["srv-1", "shop-amy"])
        #expect(onlineList["srv-1"]?.firstName == "Caroline")
        #expect(
            device.shop.storedOrders.map(\.email).sorted() == ["amy.new@example.com", validOrder().email])
        #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty)
        #expect(await device.rowsChangedHere() == 0)
    }

    @Test("an offline delete and update stay as made through online listings until the shop took them")
    func noFlickerBack() async throws {
        // Given: Amy's order updated and Bob's deleted offline, and the shop failing those two
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        var amy = DeviceAndShop.amy
        amy.lastName = "Appleton"
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(amy))
        _ = await PromiseExpectations.value(of: device.offline.deleteOrder(id: "shop-bob"))
        device.shop.refuse("PUT /orders/shop-amy", status: 503, body: "{}")

        // When: listing online while the shop still has both as they were
        let during = await device.listing(device.online)

        // Then: Bob's stays hidden, Amy's shows the new name, both wait
        #expect(Set(during.keys) == ["shop-amy"])
        #expect(during["shop-amy"]?.lastName == "Appleton")
        #expect(device.shop.storedOrders.count == 2)
        #expect(await PromiseExpectations.value(of: device.online.syncStatus())?.waiting == 2)

        // When: the shop takes them, once the wait after the failure has passed
        device.shop.allow("PUT /orders/shop-amy")
        device.clock.advance(300)
        let after = await device.listing(device.online)

        // Then
        #expect(Set(after.keys) == ["shop-amy"])
        #expect(after["shop-amy"]?.lastName == "Appleton")
        #expect(device.shop.storedOrders.map(\.lastName) == ["Appleton"])
        #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty)
    }

    @Test(
        "a change made online to an order whose create still waits joins that create: one POST, with the change"
    )
    func onlineChangeJoinsTheWaitingCreate() async throws {
        // Given: an order created offline, not sent yet
        let device = try DeviceAndShop()
        var created = try #require(
            await PromiseExpectations.value(of: device.offline.createOrder(validOrder())))

        // When: the shop is reachable again and the order is changed before any sync
        created.firstName = "Caroline"
        let updated = await PromiseExpectations.value(of: device.online.updateOrder(created))
        let status = await PromiseExpectations.value(of: device.online.syncStatus())
        _ = await PromiseExpectations.value(of: device.online.sync())

        // Then: kept here first, then the shop got one create carrying the change
        #expect(updated?.firstName == "Caroline")
        #expect(status?.waiting == 1)
        #expect(device.shop.applied == ["POST /orders"])
        #expect(device.shop.storedOrders.first { $0.id == "srv-1" }?.firstName == "Caroline")
    }

    @Test("a create whose attempt failed online is queued under the same idempotency key")
    func failedOnlineCreateKeepsItsKey() async throws {
        // Given: a shop that takes the POST and then resets the connection, so the answer is lost
        let device = try DeviceAndShop()
        device.shop.flap(true)
        _ = await PromiseExpectations.error(of: device.online.fetchOrders())  // request 1: a 503
        _ = await device.listing(device.online)  // request 2: answered

        // When: request 3 is applied, then its connection reset
        let created = await PromiseExpectations.value(of: device.online.createOrder(validOrder()))
        let queued = await PromiseExpectations.value(of: device.online.syncStatus())
        device.shop.flap(false)
        let report = await PromiseExpectations.value(of: device.online.sync())

        // Then: it was queued, and the shop made one order
        #expect(queued?.state(of: created?.id ?? "") == .pending)
        #expect(report?.sent.count == 1)
        #expect(device.shop.applied.count == 1)
        #expect(device.shop.storedOrders.count == 3)
    }

    @Test("against a shop that fails every other request, 100 queued changes all arrive, each once")
    func flappingShop() async throws {
        // Given
        let device = try DeviceAndShop()
        for index in 0..<100 {
            _ = await PromiseExpectations.value(
                of: device.offline.createOrder(validOrder(email: "buyer\(index)@example.com")))
        }
        device.shop.flap(true)

        // When: syncing until nothing waits, as an app would at each listing
        var rounds = 0
        var waiting = 100
        while waiting > 0 && rounds < 1_000 {
            rounds += 1
            waiting = await PromiseExpectations.value(of: device.online.sync())?.waiting ?? -1
            device.clock.advance(300)  // past any wait a failure set
        }

        // Then
        #expect(waiting == 0)
        let applied = device.shop.writes
        #expect(applied.count == 100)
        #expect(Set(applied.compactMap(\.key)).count == 100)
        #expect(Set(device.shop.storedOrders.map(\.email)).count == 102)
        device.shop.flap(false)
        let listed = await device.listing(device.online)
        #expect(listed.count == 102)
        #expect(listed.keys.allSatisfy { $0.hasPrefix("srv-") || $0.hasPrefix("shop-") })
    }

    @Test("a change and its outbox entry are written together: a refused local write leaves neither")
    func recordedWithTheChange() async throws {
        // Given
        let device = try DeviceAndShop()
        var invalid = validOrder()
        invalid.email = ""

        // When
        let error = await PromiseExpectations.error(of: device.offline.createOrder(invalid))

        // Then
        #expect(error is OrdersStoreError)
        #expect(await device.keys().isEmpty)
        #expect(await PromiseExpectations.value(of: device.cache.deviceOrders())?.isEmpty == true)
    }

    @Test("card data never reaches the outbox: the queued body carries the masked card")
    func noCardDataInTheOutbox() async throws {
        // Given
        let device = try DeviceAndShop()

        // When
        _ = await PromiseExpectations.value(of: device.offline.createOrder(validOrder()))

        // Then
        let body = try #require(
            await PromiseExpectations.value(of: device.cache.outbox.entries())?.first?.body)
        let text = String(decoding: body, as: UTF8.self)
        #expect(!text.contains("4012"))
        #expect(!text.contains("987"))
        #expect(text.contains("1881"))
        #expect(!text.contains(#""id""#), "the shop names it; the local identifier stays here: \(text)")
    }

    @Test("an order deleted offline is gone here: it can be neither fetched, changed nor deleted again")
    func deletedOfflineIsGone() async throws {
        // Given
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        _ = await PromiseExpectations.value(of: device.offline.deleteOrder(id: "shop-amy"))

        // When
        let fetched = await PromiseExpectations.error(of: device.offline.fetchOrder(id: "shop-amy"))
        let updated = await PromiseExpectations.error(of: device.offline.updateOrder(DeviceAndShop.amy))
        let deleted = await PromiseExpectations.error(of: device.offline.deleteOrder(id: "shop-amy"))

        // Then
        for error in [fetched, updated, deleted] {
            guard case .notFound(let id)? = (error as? OrdersStoreError)?.reason else {
                Issue.record("expected notFound, got \(String(describing: error))")
                continue
            }
            #expect(id == "shop-amy")
        }
        #expect(await device.keys().count == 1)
    }
}
