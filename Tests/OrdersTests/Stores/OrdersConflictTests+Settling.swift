import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// Settling a conflict where the device knows less: a `412` that came without the shop's copy (it
/// must be read or forgotten), and a delete waiting behind the change given up.
extension OrdersConflictTests {
    /// Given: Amy's order renamed offline and in the shop, then synced; the shop's `412` carries no
    /// body, and a change without `If-Match` is refused.
    func bodilessConflict() async throws -> DeviceAndShop {
        let device = try await deviceWithCopy()
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(renamedAmy(last: "Mine")))
        device.shop.editOnServer("shop-amy") { $0.lastName = "Theirs" }
        device.shop.refuse(matching: { $0.headers["if-match"] == #""1""# }, status: 412, body: "")
        device.shop.refuse(
            matching: { $0.method == "PUT" && $0.headers["if-match"] == nil }, status: 428, body: "")
        let synced = await PromiseExpectations.value(of: device.online.sync())
        #expect(synced?.conflicted.map(\.localID) == ["shop-amy"])
        return device
    }

    @Test("keeping mine while the shop fails to give its copy: nothing is sent, the conflict waits")
    func keepMineWhileTheShopFails() async throws {
        // Given
        let device = try await bodilessConflict()
        device.shop.refuse(matching: { $0.method == "GET" }, status: 503, body: "")

        // When
        let error = await PromiseExpectations.error(of: device.online.resolve(id: "shop-amy", keeping: .mine))

        // Then
        #expect(error != nil)
        #expect(await PromiseExpectations.value(of: device.online.syncStatus())?.conflicted == 1)
        #expect(device.shop.storedOrders.first { $0.id == "shop-amy" }?.lastName == "Theirs")
    }

    @Test("keeping theirs without the shop's copy: the next listing reads the order whole again")
    func keepTheirsWithoutCopyListsItAgain() async throws {
        // Given: the conflict, and a listing since, which knows the shop's list as it is now
        let device = try await bodilessConflict()
        _ = await device.listing(device.online)

        // When: theirs kept with no copy of it here, then the list read
        _ = await PromiseExpectations.value(of: device.online.resolve(id: "shop-amy", keeping: .theirs))
        let listed = await device.listing(device.online)

        // Then: not "unchanged since the last listing", which would leave the order out
        #expect(listed["shop-amy"]?.lastName == "Theirs")
    }

    @Test(
        "keeping theirs with a delete waiting behind the conflict: the order stays hidden here until it is sent"
    )
    func keepTheirsWithALaterDelete() async throws {
        // Given: a conflict on the last name, then, offline, Amy's order deleted
        let device = try await deviceWithCopy()
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(renamedAmy(last: "Mine")))
        device.shop.editOnServer("shop-amy") { $0.lastName = "Theirs" }
        _ = await PromiseExpectations.value(of: device.online.sync())
        _ = await PromiseExpectations.value(of: device.offline.deleteOrder(id: "shop-amy"))

        // When: theirs kept while the shop is down, so the delete waits
        device.shop.isDown = true
        _ = await PromiseExpectations.value(of: device.online.resolve(id: "shop-amy", keeping: .theirs))

        // Then
        #expect(await device.listing(device.offline)["shop-amy"] == nil)
        #expect(await PromiseExpectations.value(of: device.offline.syncStatus())?.waiting == 1)
    }
}
