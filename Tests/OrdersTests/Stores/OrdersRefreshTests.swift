import Foundation
import OrdersTesting
import Testing

/// `FallbackOrdersStore.refresh()`: the shop's changes come down through its feed when it has one,
/// a `304` when nothing changed.
@Suite("Orders: refresh")
struct OrdersRefreshTests {
    @Test("an order changed and one deleted in the shop come down through its feed, the rest untouched")
    func refreshThroughTheFeed() async throws {
        // Given: the orders listed once
        let device = try DeviceAndShop()
        _ = await PromiseExpectations.value(of: device.online.fetchOrders())
        device.shop.edit("shop-amy", as: Order.self) { $0.lastName = "Apricot" }
        device.shop.delete("shop-bob")

        // When
        _ = await PromiseExpectations.value(of: device.online.refresh())
        let kept = await PromiseExpectations.value(of: device.cache.fetchOrders())

        // Then
        #expect(kept?.map(\.lastName) == ["Apricot"])
        #expect(device.server.requests.filter { $0.contains("since=") }.count == 1)
        #expect(device.shop.listings.full == 1)
    }

    @Test("nothing changed: a 304, and the copy kept")
    func unchangedRefresh() async throws {
        // Given
        let device = try DeviceAndShop(orders: [DeviceAndShop.amy])
        let plain = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: device.server.baseURL, timeout: 30, retry: .never)),
            cache: device.cache)
        _ = await PromiseExpectations.value(of: plain.fetchOrders())
        try await device.database.write { connection in
            // As an API without a feed: the listing's token forgotten, its ETag kept.
            let validators = try connection.cacheValidators("orders")
            try connection.setCacheStamp(
                "orders", to: Date(), validators: CacheValidators(etag: validators?.etag))
        }.value

        // When
        _ = await PromiseExpectations.value(of: plain.refresh())

        // Then
        #expect(device.shop.listings.full == 1 && device.shop.listings.notModified == 1)
        #expect(await PromiseExpectations.value(of: device.cache.fetchOrders())?.map(\.id) == ["shop-amy"])
    }
}
