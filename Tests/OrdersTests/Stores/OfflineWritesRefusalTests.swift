import Foundation
import OfflineKit
import OrdersTesting
import Testing

@Suite("Offline writes: refused changes")
struct OfflineWritesRefusalTests {
    @Test("a 409 keeps the change, marked refused with the shop's reason; the next changes still go")
    func refusedChangeIsKeptAndOthersGo() async throws {
        // Given
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        var amy = DeviceAndShop.amy
        amy.email = "amy.conflict@example.com"
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(amy))
        _ = await PromiseExpectations.value(of: device.offline.deleteOrder(id: "shop-bob"))
        device.shop.refuse(
            "PUT /orders/shop-amy", status: 409, body: #"{"error": "changed by someone else"}"#)

        // When
        let report = await PromiseExpectations.value(of: device.online.sync())

        // Then
        let reason = "HTTP 409: changed by someone else"
        #expect(report?.refused.map(\.state) == [.refused(reason: reason)])
        #expect(report?.sent.map(\.method) == [.delete])
        #expect(device.shop.applied.count == 1)
        let status = await PromiseExpectations.value(of: device.online.syncStatus())
        #expect(status?.state(of: "shop-amy") == .refused(reason: reason))
        #expect(status?.refused == 1 && status?.waiting == 0)
        #expect(await device.listing(device.online)["shop-amy"]?.email == "amy.conflict@example.com")

        // When: retried once the shop accepts
        device.shop.allow("PUT /orders/shop-amy")
        let retried = await PromiseExpectations.value(of: device.online.retry(id: "shop-amy"))

        // Then
        #expect(retried?.sent.map(\.method) == [.put])
        #expect(device.shop.storedOrders.map(\.email) == ["amy.conflict@example.com"])
    }

    @Test("discarding a refused change undoes it here; an order the shop never had goes")
    func discardRefused() async throws {
        // Given: an order created offline that the shop refuses
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        let created = try #require(
            await PromiseExpectations.value(of: device.offline.createOrder(validOrder())))
        device.shop.refuse(
            "POST /orders", status: 422, body: #"{"errors": [{"message": "No such street."}]}"#)
        _ = await PromiseExpectations.value(of: device.online.sync())

        // When
        let dropped = await PromiseExpectations.value(of: device.online.discard(id: created.id ?? ""))

        // Then
        #expect(dropped?.map(\.method) == [.post])
        #expect(Set(await device.listing(device.online).keys) == ["shop-amy", "shop-bob"])
        #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty)
        let nothing = await PromiseExpectations.error(of: device.online.discard(id: "shop-amy"))
        #expect(nothing as? OrdersStoreError == OrdersStoreError(.deleteOrder, .notFound(id: "shop-amy")))
    }
}
