import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// `count` orders `page-00` … newest first by number, in threes sharing a date (so the identifier
/// orders them within it), on 2 January 1970 with a fraction of a second, which a `Date` made from
/// seconds since 1970 gives back one bit off, each with an item named after it.
private func pagedOrders(_ count: Int) -> [Order] {
    (0..<count).map { index in
        Order(
            id: String(format: "page-%02d", index),
            date: Date(timeIntervalSince1970: 100_000.123_456_789 - Double(index / 3) * 60.1),
            email: "buyer\(index)@example.com", firstName: "First\(index)", lastName: "Last\(index)",
            items: [OrderItem(name: "Item \(index)", quantity: 1 + index % 3, unitPrice: Decimal(index))],
            total: Decimal(index))
    }
}

/// Every page from the start, `limit` orders at most each.
private func allPages(
    _ fetch: (OrdersPage.Cursor?) -> Promise<OrdersPage>
) async -> [OrdersPage] {
    var pages: [OrdersPage] = []
    var cursor: OrdersPage.Cursor?
    repeat {
        guard let page = await PromiseExpectations.value(of: fetch(cursor)) else { return pages }
        pages.append(page)
        cursor = page.next
    } while cursor != nil && pages.count < 100
    return pages
}

@Suite("Orders read a page at a time")
struct OrdersPagesTests {
    let folder = TemporaryFolder("OrdersPagesTests")

    func store(holding orders: [Order]) async throws -> OrdersSQLiteStore {
        let store = OrdersSQLiteStore(database: try Database(at: folder.file("orders.sqlite")))
        // Saved oldest first, so that orders of one date are not also in the file in their order.
        _ = await PromiseExpectations.value(of: store.save(orders.reversed(), at: day(2026, 11, 24)))
        return store
    }

    @Test("the pages hold every order once, with its items, in the full listing's order")
    func pagesCoverTheListing() async throws {
        // Given: ten orders, three to a date
        let store = try await store(holding: pagedOrders(10))
        let listed = await PromiseExpectations.value(of: store.fetchOrders()) ?? []

        // When: read three at a time
        let pages = await allPages { store.fetchOrdersPage(after: $0, limit: 3) }

        // Then: 3 + 3 + 3 + 1, the same orders as the listing, the count on the first page only
        #expect(pages.map(\.orders.count) == [3, 3, 3, 1])
        #expect(pages.flatMap(\.orders) == listed)
        #expect(listed.count == 10)
        #expect(pages.map(\.count) == [10, nil, nil, nil])
        #expect(pages.last?.next == nil)
        #expect(pages.first?.savedAt == day(2026, 11, 24))
    }

    @Test("dates written by another program, not through a Date, page without a repeat or a gap")
    func foreignDates() async throws {
        // Given: the dates rewritten in SQL, to values a `Date` would give back one bit off
        let database = try Database(at: folder.file("orders.sqlite"))
        let store = OrdersSQLiteStore(database: database)
        _ = await PromiseExpectations.value(of: store.save(pagedOrders(9).reversed(), at: day(2026, 11, 24)))
        _ = await PromiseExpectations.value(
            of: database.write { connection in
                try connection.execute(
                    "UPDATE orders SET date = 100000.123456789 - (CAST(substr(id, 6) AS INTEGER) / 3) * 60.1")
            })

        // When: pages that end inside a date's three orders
        let pages = await allPages { store.fetchOrdersPage(after: $0, limit: 2) }

        // Then
        #expect(pages.flatMap(\.orders).map(\.id) == pagedOrders(9).map(\.id))
    }

    @Test("a page that ends the list exactly says it is the last")
    func exactLastPage() async throws {
        // Given
        let store = try await store(holding: pagedOrders(6))

        let memory = OrdersWorker(ordersStore: OrdersMemStore(orders: pagedOrders(6)))

        // When: the database's pages, and those any other store is paged with
        let pages = await allPages { store.fetchOrdersPage(after: $0, limit: 3) }
        let fromMemory = await allPages { memory.fetchOrdersPage(after: $0, limit: 3) }

        // Then: no third, empty page to ask for
        #expect(pages.map(\.orders.count) == [3, 3])
        #expect(pages.last?.next == nil)
        #expect(fromMemory.map(\.orders.count) == [3, 3])
        #expect(fromMemory.last?.next == nil)
    }

    @Test("orders added and deleted between pages neither repeat nor skip the pages still to come")
    func changesBetweenPages() async throws {
        // Given: the first page read
        let store = try await store(holding: pagedOrders(9))
        let first = await PromiseExpectations.value(of: store.fetchOrdersPage(after: nil, limit: 4))

        // When: a newer order is made here and one already shown is deleted, then the rest is read
        _ = await PromiseExpectations.value(of: store.createOrder(validOrder()))
        _ = await PromiseExpectations.value(of: store.deleteOrder(id: "page-01"))
        let rest = await allPages { store.fetchOrdersPage(after: $0 ?? first?.next, limit: 4) }

        // Then: the rest starts where the first page ended
        #expect(first?.orders.map(\.id) == ["page-00", "page-01", "page-02", "page-03"])
        #expect(rest.flatMap(\.orders).map(\.id) == ["page-04", "page-05", "page-06", "page-07", "page-08"])
    }

    @Test("the offline store pages the copy with this device's changes, and their sync states")
    func offlineStorePagesDeviceChanges() async throws {
        // Given: the shop's two orders listed, then one created and one deleted offline
        let device = try DeviceAndShop()
        _ = await PromiseExpectations.value(of: device.online.fetchOrders())
        let created = await PromiseExpectations.value(of: device.offline.createOrder(validOrder()))
        _ = await PromiseExpectations.value(of: device.offline.deleteOrder(id: DeviceAndShop.amy.id ?? ""))

        // When
        let pages = await allPages { device.offline.fetchOrdersPage(after: $0, limit: 1) }

        // Then: what the full offline listing shows, the new order waiting
        let listed = await PromiseExpectations.value(of: device.offline.fetchOrders())
        #expect(pages.flatMap(\.orders) == listed)
        #expect(pages.flatMap(\.orders).map(\.id) == [created?.id, DeviceAndShop.bob.id])
        #expect(pages.first?.syncStatus.state(of: created?.id ?? "") == .pending)
    }

    @Test("a store that cannot read pages is paged from its whole list, in the same order")
    func workerPagesAnyStore() async throws {
        // Given: the same orders in memory, shuffled, and in the database
        let orders = pagedOrders(7)
        let memory = OrdersWorker(ordersStore: OrdersMemStore(orders: orders.reversed()))
        let database = try await store(holding: orders)

        // When
        let fromMemory = await allPages { memory.fetchOrdersPage(after: $0, limit: 3) }
        let fromDatabase = await allPages { database.fetchOrdersPage(after: $0, limit: 3) }

        // Then
        #expect(fromMemory.map(\.orders.count) == [3, 3, 1])
        #expect(fromMemory.flatMap(\.orders).map(\.id) == fromDatabase.flatMap(\.orders).map(\.id))
        #expect(fromMemory.map(\.count) == [7, nil, nil])
    }

    @Test("a watch of the first page holds its newest orders and follows an order made newer than them")
    func watchedFirstPage() async throws {
        // Given: nine orders, and the first three watched
        let store = try await store(holding: pagedOrders(9))
        let snapshots = DeliveryRecorder<OrdersSnapshot>()
        let observation = store.watchOrders(first: 3, on: .inline) { result in
            if case .success(let snapshot) = result { snapshots.record(snapshot) }
        }
        let first = await snapshots.next()

        // When: an order newer than all of them is made here
        let created = await PromiseExpectations.value(of: store.createOrder(validOrder()))
        let after = await snapshots.next(where: { $0.orders.first?.id == created?.id })

        // Then: the first page each time, with the new order's sync state
        #expect(first?.orders.map(\.id) == ["page-00", "page-01", "page-02"])
        #expect(after?.orders.map(\.id) == [created?.id, "page-00", "page-01"])
        #expect(after?.syncStatus.state(of: created?.id ?? "") == .pending)
        observation?.cancel()
    }

    @Test("a store that cannot watch pages has its whole list's snapshots cut to the newest orders")
    func watchedFirstPageOfAnyStore() async {
        // Given: a store that watches its whole list, shuffled
        let store = WholeListWatchingStore(orders: pagedOrders(5).reversed())
        let snapshots = DeliveryRecorder<OrdersSnapshot>()

        // When
        let observation = store.watchOrders(first: 2, on: .inline) { result in
            if case .success(let snapshot) = result { snapshots.record(snapshot) }
        }

        // Then
        #expect(await snapshots.next()?.orders.map(\.id) == ["page-00", "page-01"])
        observation?.cancel()
    }
}

/// A store that watches its whole list, as a store written before pages watches it.
private struct WholeListWatchingStore: OrdersStore {
    let orders: [Order]

    func fetchOrders() -> Promise<[Order]> { .value(orders) }
    func fetchOrder(id: String) -> Promise<Order> { .value(orders[0]) }
    func createOrder(_ order: Order) -> Promise<Order> { .value(order) }
    func updateOrder(_ order: Order) -> Promise<Order> { .value(order) }
    func deleteOrder(id: String) -> Promise<Order> { .value(orders[0]) }
    func watchOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle? {
        onChange(.success(OrdersSnapshot(orders: orders, syncStatus: .empty, savedAt: nil)))
        return ObservationHandle {}
    }
}
