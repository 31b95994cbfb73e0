import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// `FallbackOrdersStore.storageBudget(bytes:)`: the orders' own tables bounded beside the
/// customers' shared one, the shop's orders saved longest ago let go of first, never one made here.
@Suite("Orders under a storage budget")
struct OrdersStorageBudgetTests {
    /// Ten orders at the shop, one a day.
    static let shopOrders = (1...10).map { number in
        Order(
            id: "shop-\(number)", date: day(2026, 11, number), email: "buyer\(number)@example.com",
            firstName: "Buyer", lastName: "Number \(number)",
            items: [OrderItem(name: "Tea", quantity: number, unitPrice: 2)], total: Decimal(2 * number))
    }

    @Test("the shop's orders saved first go; an order made here stays; online, the listing comes back whole")
    func oldestShopOrdersGo() async throws {
        // Given: five orders listed, five more an hour later, then one made offline
        let device = try DeviceAndShop(orders: Array(Self.shopOrders.prefix(5)))
        _ = await device.listing(device.online)
        device.clock.advance(3_600)
        for order in Self.shopOrders.suffix(5) {
            _ = await PromiseExpectations.value(of: device.online.createOrder(order))
        }
        _ = await device.listing(device.online)
        var mine = DeviceAndShop.amy
        mine.id = nil
        mine.email = "mine@example.com"
        _ = await PromiseExpectations.value(of: device.offline.createOrder(mine))
        let full = await PromiseExpectations.value(of: device.online.storageBudget(bytes: 0).usage())

        // When: a budget of a bit more than half
        let budget = device.online.storageBudget(bytes: (full?.bytes ?? 0) * 6 / 10)
        let usage = await PromiseExpectations.value(of: budget.enforce())
        let offline = await device.listing(device.offline)

        // Then: the five listed first went, whatever fit of the rest stayed, mine stayed
        #expect(usage.map { $0.evicted >= 4 && $0.isWithinBudget } == true, "\(String(describing: usage))")
        #expect(offline.values.contains { $0.email == "mine@example.com" })
        #expect(Set(offline.keys).isDisjoint(with: ["shop-1", "shop-2", "shop-3", "shop-4"]))
        #expect(offline.count == 11 - (usage?.evicted ?? 0))

        // When: online again
        let online = await device.listing(device.online)

        // Then: every order is listed, mine sent once
        #expect(online.count == 11, "\(online.keys.sorted())")
        #expect(device.shop.storedOrders.filter { $0.email == "mine@example.com" }.count == 1)
    }

    @Test("an order read on its own stays over orders saved with it")
    func readOrdersStay() async throws {
        // Given: on another device, the order a budget one byte short lets go of first
        let measured = try DeviceAndShop(orders: Self.shopOrders)
        _ = await measured.listing(measured.online)
        let size =
            await PromiseExpectations.value(of: measured.online.storageBudget(bytes: 0).usage())?.bytes ?? 0
        _ = await PromiseExpectations.value(of: measured.online.storageBudget(bytes: size - 1).enforce())
        let first = try #require(
            Set(Self.shopOrders.compactMap(\.id)).subtracting(await measured.listing(measured.offline).keys)
                .first)
        // and here, the ten listed at once, then that one read offline an hour later
        let device = try DeviceAndShop(orders: Self.shopOrders)
        _ = await device.listing(device.online)
        device.clock.advance(3_600)
        let read = await PromiseExpectations.value(of: device.offline.fetchOrder(id: first))

        // When: the same budget
        let usage = await PromiseExpectations.value(
            of: device.online.storageBudget(bytes: size - 1).enforce())

        // Then: one order went, not the one read
        let kept = await device.listing(device.offline)
        #expect(read?.id == first && usage?.evicted == 1)
        #expect(kept.count == 9 && kept[first] != nil, "\(first) \(kept.keys.sorted())")
    }

    @Test("orders let go of are listed whole again online: the shop's ETag of the old listing is not sent")
    func evictedOrdersAreListedWhole() async throws {
        // Given: the ten orders listed (the shop gives its ETag), then all let go of
        let device = try DeviceAndShop(orders: Self.shopOrders)
        _ = await device.listing(device.online)
        let usage = await PromiseExpectations.value(of: device.online.storageBudget(bytes: 0).enforce())
        #expect(usage?.evicted == 10)
        #expect(await device.listing(device.offline).isEmpty)

        // When
        let online = await device.listing(device.online)

        // Then: asked whole, not confirmed by a 304 of an empty copy
        #expect(online.count == 10)
        #expect(device.shop.listings.notModified == 0)
    }

    @Test("enforcing bounds the orders too: a listing over the budget is brought back within it")
    func enforcingCoversTheOrders() async throws {
        // Given: a budget of half the orders (as another device measured them), kept from now on
        let measured = try DeviceAndShop(orders: Self.shopOrders)
        _ = await measured.listing(measured.online)
        let half =
            (await PromiseExpectations.value(of: measured.online.storageBudget(bytes: 0).usage())?.bytes ?? 0)
            / 2
        let device = try DeviceAndShop(orders: Self.shopOrders)
        let reports = DeliveryRecorder<StorageUsage>()
        let enforcing = device.online.storageBudget(bytes: half).enforcing { result in
            if case .success(let usage) = result { reports.record(usage) }
        }
        defer { enforcing.cancel() }

        // When
        _ = await device.listing(device.online)
        let report = await reports.next()

        // Then
        #expect(report.map { $0.evicted > 0 && $0.bytes <= half } == true, "\(String(describing: report))")
        #expect(await device.listing(device.offline).count == 10 - (report?.evicted ?? 0))
    }
}

extension OrdersStorageBudgetTests {
    @Test("the orders' diagnostics measure their copy in the bytes the budget counts")
    func diagnosticsMeasureTheOrdersCopy() async throws {
        // Given: ten orders listed
        let device = try DeviceAndShop(orders: Self.shopOrders)
        _ = await device.listing(device.online)

        // When
        let snapshot = await PromiseExpectations.value(of: device.online.diagnostics())
        let usage = try #require(
            await PromiseExpectations.value(of: device.online.storageBudget(bytes: 0).usage()))

        // Then: ten rows, more bytes than an empty copy, no more than the budget's whole count
        let copy = try #require(snapshot?.first { $0.feature == "orders" }?.copy)
        #expect(copy.rows == 10)
        #expect(copy.bytes > 10 * 50 && copy.bytes <= usage.bytes, "\(copy.bytes) of \(usage.bytes)")
    }
}
