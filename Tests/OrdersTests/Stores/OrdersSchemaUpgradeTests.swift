import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// Files an earlier version left: the `orders` schema's step 5 queues the creates that version
/// kept without an outbox entry, once, and never takes a change whose entry is missing for one
/// (`OrdersSchema.migrations(queueingIn:)`).
@Suite("Orders: upgrading a file")
struct OrdersSchemaUpgradeTests {
    /// Leaves the file as a version before the outbox's re-queue step left it (the `orders`
    /// schema at 4), and opens it again as the app would: a new connection and stores.
    static func reopenedAsUpgraded(_ device: DeviceAndShop) async throws -> FallbackOrdersStore {
        _ = await PromiseExpectations.value(
            of: device.database.write {
                try $0.execute("UPDATE schema_versions SET version = 4 WHERE name = 'orders'")
                // What steps 6 to 10 add, taken away: the indexes are made if missing, the columns not.
                try $0.execute("ALTER TABLE orders DROP COLUMN customer_id")
                try $0.execute("ALTER TABLE orders DROP COLUMN attachments")
                try $0.execute("ALTER TABLE orders DROP COLUMN saved_at")
            })
        let reopened = try Database(at: device.folder.file("orders.sqlite"))
        return FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: device.server.baseURL, timeout: 30, retry: .never)),
            cache: OrdersSQLiteStore(database: reopened))
    }

    @Test(
        "an order an earlier version kept on this device without an outbox entry is queued once, when the file is upgraded"
    )
    func ordersFromBeforeTheOutboxAreSent() async throws {
        // Given: an order written as earlier versions wrote offline creates, with no entry
        let device = try DeviceAndShop()
        let kept = try #require(await PromiseExpectations.value(of: device.cache.createOrder(validOrder())))
        _ = await PromiseExpectations.value(
            of: device.database.write { try $0.execute("DELETE FROM outbox") })
        let notUpgraded = await PromiseExpectations.value(of: device.online.sync())

        // When
        let upgraded = try await Self.reopenedAsUpgraded(device)
        let report = await PromiseExpectations.value(of: upgraded.sync())
        let again = await PromiseExpectations.value(of: upgraded.sync())

        // Then: not sent by a sync of its own (a device-only order), sent once after the upgrade
        #expect(notUpgraded?.sent.isEmpty == true)
        #expect(report?.newIDs == [kept.id ?? "": "srv-1"])
        #expect(again?.sent.isEmpty == true)
        #expect(device.shop.applied.count == 1)
        #expect(await device.listing(upgraded)["srv-1"]?.email == validOrder().email)
    }

    @Test(
        "an order changed here whose change is missing from the outbox is never sent as a create, by a sync or by the upgrade"
    )
    func missingEntryNeverDuplicates() async throws {
        // Given: an order from the shop edited offline, its outbox entry then lost
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        var amy = DeviceAndShop.amy
        amy.version = "1"
        amy.lastName = "Edited"
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(amy))
        _ = await PromiseExpectations.value(
            of: device.database.write { try $0.execute("DELETE FROM outbox") })

        // When
        _ = await PromiseExpectations.value(of: device.online.sync())
        let upgraded = try await Self.reopenedAsUpgraded(device)
        _ = await PromiseExpectations.value(of: upgraded.sync())

        // Then: the shop was asked for nothing, and holds two orders still
        #expect(device.shop.applied.isEmpty)
        #expect(device.shop.storedOrders.count == 2)

        // And: the order is shown damaged, never synced, until its change here is discarded
        let status = await PromiseExpectations.value(of: upgraded.syncStatus())
        guard case .damaged(let reason)? = status?.state(of: "shop-amy") else {
            Issue.record("shop-amy is \(String(describing: status?.state(of: "shop-amy")))")
            return
        }
        #expect(reason.contains("missing from the outbox"))
        #expect(status?.damaged == 1)
        let dropped = await PromiseExpectations.value(of: upgraded.discard(id: "shop-amy"))
        #expect(dropped?.count == 1)
        #expect(await device.listing(upgraded)["shop-amy"]?.lastName == "Apple")
        #expect(await PromiseExpectations.value(of: upgraded.syncStatus()) == .empty)
    }
}
