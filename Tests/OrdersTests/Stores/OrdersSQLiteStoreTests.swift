import Foundation
import OfflineKit
import OrdersTesting
import Testing

@Suite("Orders SQLite store")
struct OrdersSQLiteStoreTests {
    let folder = TemporaryFolder("OrdersTests")
    var file: URL { folder.file("orders.sqlite") }

    @Test("orders survive closing and reopening the file")
    func survivesReopen() async throws {
        // Given
        var created: Order?
        do {
            let store = OrdersSQLiteStore(database: try Database(at: file))
            created = await PromiseExpectations.value(of: store.createOrder(validOrder()))
        }

        // When
        let reopened = OrdersSQLiteStore(database: try Database(at: file))
        let orders = await PromiseExpectations.value(of: reopened.fetchOrders())

        // Then
        #expect(orders?.count == 1)
        #expect(orders?.first?.id == created?.id)
        #expect(orders?.first?.total == Decimal(string: "23.49"))
        #expect(orders?.first?.shipmentAddress == validOrder().shipmentAddress)
    }

    @Test(
        "the copy's date is read without its orders: none when empty, the newest made here, then the listing's"
    )
    func savedAtWithoutReading() async throws {
        // Given: nothing saved
        let device = try DeviceAndShop()
        let (store, clock) = (device.cache, device.clock)
        let empty = await PromiseExpectations.value(of: store.savedAt())

        // When: an order made here, then a listing saved later
        _ = await PromiseExpectations.value(of: device.offline.createOrder(validOrder()))
        let madeHere = await PromiseExpectations.value(of: store.savedAt())
        let madeHereLoaded = await PromiseExpectations.value(of: store.load())
        let listedAt = clock.now.addingTimeInterval(60)
        _ = await PromiseExpectations.value(of: store.save([], at: listedAt))
        let listed = await PromiseExpectations.value(of: store.savedAt())

        // Then: each time the date `load()` gives the orders
        #expect(empty == .some(nil))
        #expect(madeHere == .some(clock.now))
        #expect(madeHereLoaded??.savedAt == clock.now)
        #expect(listed == .some(listedAt))
        #expect(await PromiseExpectations.value(of: store.load())??.savedAt == listedAt)
    }

    @Test(
        "orders written through the SQLite store are the fallback store's offline writes: sent once, then synced"
    )
    func writesReachTheShop() async throws {
        // Given: an order created, and Amy's updated and Bob's deleted, through the device store
        let device = try DeviceAndShop()
        let listed = await device.listing(device.online)
        let created = try #require(
            await PromiseExpectations.value(of: device.cache.createOrder(validOrder())))
        var amy = try #require(listed["shop-amy"])
        amy.lastName = "Edited"
        _ = await PromiseExpectations.value(of: device.cache.updateOrder(amy))
        let deleted = await PromiseExpectations.value(of: device.cache.deleteOrder(id: "shop-bob"))

        // When
        let report = await PromiseExpectations.value(of: device.online.sync())

        // Then: the shop has each change once, and nothing waits or stays marked as changed here
        #expect(deleted?.id == "shop-bob")
        #expect(report?.sent.count == 3, "\(String(describing: report))")
        #expect(device.shop.storedOrders.contains { $0.email == created.email && $0.id != created.id })
        #expect(device.shop.storedOrders.first { $0.id == "shop-amy" }?.lastName == "Edited")
        #expect(!device.shop.storedOrders.contains { $0.id == "shop-bob" })
        #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty)
        #expect(await device.rowsChangedHere() == 0)
    }

    @Test("creates from many threads at once lose nothing")
    func concurrentCreates() async throws {
        // Given
        let store = OrdersSQLiteStore(database: try Database(at: file))

        // When
        let creates = (0..<200).map { index in
            DispatchQueue.global().sync { store.createOrder(validOrder(email: "buyer\(index)@example.com")) }
        }
        _ = await when(resolved: creates).value

        // Then
        let orders = await PromiseExpectations.value(of: store.fetchOrders())
        #expect(orders?.count == 200)
        #expect(Set(orders?.compactMap(\.id) ?? []).count == 200)
    }

    @Test("the file keeps the card's last four digits only: never the number or the CVV")
    func cardIsNotStoredWhole() async throws {
        // Given: identifiers without digits, a fixed clock and a four-digit CVV, so that nothing
        // else the store writes holds the CVV's digits by chance (the three digits "987" turned up
        // once in a loaded run, in a random key or a time of the outbox)
        let store = OrdersSQLiteStore(
            database: try Database(at: file), makeID: { "order-x" }, now: { day(2026, 11, 24) })
        var order = validOrder()
        order.paymentMethod.cvv = "9871"

        // When
        let created = await PromiseExpectations.value(of: store.createOrder(order))

        // Then: the number and the CVV are nowhere in the file, outside the random idempotency keys
        #expect(created?.paymentMethod.creditCardNumber == "•••• 1881")
        #expect(created?.paymentMethod.cvv == "")
        let bytes = try [file, URL(fileURLWithPath: file.path + "-wal")]
            .filter { FileManager.default.fileExists(atPath: $0.path) }
            .map { try Data(contentsOf: $0) }
            .reduce(Data(), +)
        let text = String(decoding: bytes.map { $0 < 0x80 ? $0 : 0x20 }, as: UTF8.self)
            .replacingOccurrences(
                of: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", with: "",
                options: .regularExpression)
        #expect(!text.contains("4012888888881881"))
        #expect(!text.contains("4012 8888 8888 1881"))
        #expect(!text.contains("9871"))
        #expect(text.contains("1881"))
    }

    @Test(
        "stores made twice on one database, and a cache beside them, all read and write: a schema applies once"
    )
    func schemaAppliedTwiceIsHarmless() async throws {
        // Given
        let folder = TemporaryFolder("FeatureSchemaTests")
        let database = try Database(at: folder.file("app.sqlite"))
        let first = OrdersSQLiteStore(database: database)
        _ = await PromiseExpectations.value(of: first.createOrder(validOrder()))

        // When: the same schema given again, by a second store and a second file handle
        let second = OrdersSQLiteStore(database: database)
        let reopened = OrdersSQLiteStore(database: try Database(at: folder.file("app.sqlite")))
        let created = await PromiseExpectations.value(
            of: second.createOrder(validOrder(email: "b@example.com")))

        // Then
        #expect(created?.id != nil)
        #expect(await PromiseExpectations.value(of: reopened.fetchOrders())?.count == 2)
    }
}
