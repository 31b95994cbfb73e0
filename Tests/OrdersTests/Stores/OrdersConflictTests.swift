import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// Orders changed here and in the shop meanwhile (another device): never overwritten silently.
/// The shop changes "on the server" as another device would (`TestOrdersShop.editOnServer`).
@Suite("Orders: conflicts with another device")
struct OrdersConflictTests {
    /// A device that listed the shop's orders, then went offline.
    func deviceWithCopy() async throws -> DeviceAndShop {
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        return device
    }

    func renamedAmy(first: String? = nil, last: String? = nil) -> Order {
        var amy = DeviceAndShop.amy
        amy.version = "1"
        if let first { amy.firstName = first }
        if let last { amy.lastName = last }
        return amy
    }

    @Test("the same field changed offline here and in the shop: a conflict, shown; nothing overwritten")
    func sameFieldConflicts() async throws {
        // Given
        let device = try await deviceWithCopy()
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(renamedAmy(last: "Mine")))
        device.shop.editOnServer("shop-amy") { $0.lastName = "Theirs" }

        // When
        let report = await PromiseExpectations.value(of: device.online.sync())
        let status = await PromiseExpectations.value(of: device.online.syncStatus())

        // Then
        #expect(report?.conflicted.map(\.localID) == ["shop-amy"])
        #expect(device.shop.storedOrders.first { $0.id == "shop-amy" }?.lastName == "Theirs")
        guard case .conflicted(let theirs?, false)? = status?.state(of: "shop-amy") else {
            Issue.record("not a conflict: \(String(describing: status))")
            return
        }
        #expect(try APIClient.decode(Order.self, from: theirs).lastName == "Theirs")
    }

    @Test("different fields changed here and in the shop: merged, and both changes kept")
    func differentFieldsMerge() async throws {
        // Given
        let device = try await deviceWithCopy()
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(renamedAmy(last: "Mine")))
        device.shop.editOnServer("shop-amy") { $0.email = "amy@theirs.example" }

        // When
        let report = await PromiseExpectations.value(of: device.online.sync())

        // Then
        #expect(report?.merged.count == 1 && report?.sent.count == 1)
        let shop = device.shop.storedOrders.first { $0.id == "shop-amy" }
        #expect(shop?.lastName == "Mine" && shop?.email == "amy@theirs.example")
        #expect(await device.listing(device.offline)["shop-amy"]?.email == "amy@theirs.example")
    }

    @Test("a conflict resolved both ways: mine reaches the shop; theirs replaces the copy here")
    func resolveBothWays() async throws {
        for keeping in [Outbox.Keeping.mine, .theirs] {
            // Given
            let device = try await deviceWithCopy()
            _ = await PromiseExpectations.value(of: device.offline.updateOrder(renamedAmy(last: "Mine")))
            device.shop.editOnServer("shop-amy") { $0.lastName = "Theirs" }
            _ = await PromiseExpectations.value(of: device.online.sync())

            // When
            let report = await PromiseExpectations.value(
                of: device.online.resolve(id: "shop-amy", keeping: keeping))

            // Then
            let kept = keeping == .mine ? "Mine" : "Theirs"
            #expect(report?.conflicted.isEmpty == true, "\(keeping)")
            #expect(device.shop.storedOrders.first { $0.id == "shop-amy" }?.lastName == kept, "\(keeping)")
            #expect(await device.listing(device.offline)["shop-amy"]?.lastName == kept, "\(keeping)")
            #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty, "\(keeping)")
        }
    }

    /// A conflict on Amy's last name (mine "Mine", theirs "Theirs"), then, offline, an edit of her
    /// first name ("Later"), which waits behind it.
    func conflictThenLaterEdit() async throws -> DeviceAndShop {
        let device = try await deviceWithCopy()
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(renamedAmy(last: "Mine")))
        device.shop.editOnServer("shop-amy") { $0.lastName = "Theirs" }
        _ = await PromiseExpectations.value(of: device.online.sync())
        _ = await PromiseExpectations.value(
            of: device.offline.updateOrder(renamedAmy(first: "Later", last: "Mine")))
        return device
    }

    @Test(
        "keeping theirs gives up only the change in conflict: a later edit of another field is moved onto the shop's copy and sent"
    )
    func keepTheirsKeepsLaterChanges() async throws {
        // Given: a conflict on the last name, then, offline, an edit of the first name behind it
        let device = try await conflictThenLaterEdit()

        // When
        let report = await PromiseExpectations.value(
            of: device.online.resolve(id: "shop-amy", keeping: .theirs))

        // Then: the shop has its last name and the later first name; so does the copy here
        #expect(report?.sent.count == 1)
        let shop = device.shop.storedOrders.first { $0.id == "shop-amy" }
        #expect(shop?.lastName == "Theirs" && shop?.firstName == "Later")
        let here = await device.listing(device.offline)["shop-amy"]
        #expect(here?.lastName == "Theirs" && here?.firstName == "Later")
        #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty)
    }

    @Test("keeping theirs while the shop is down: the later edit waits, shown over the shop's copy")
    func keepTheirsOfflineShowsLaterChange() async throws {
        // Given: a conflict on the last name, then an edit of the first name behind it
        let device = try await conflictThenLaterEdit()

        // When
        device.shop.isDown = true
        _ = await PromiseExpectations.value(of: device.online.resolve(id: "shop-amy", keeping: .theirs))

        // Then
        let here = await device.listing(device.offline)["shop-amy"]
        #expect(here?.lastName == "Theirs" && here?.firstName == "Later")
        let status = await PromiseExpectations.value(of: device.offline.syncStatus())
        #expect(status?.waiting == 1 && status?.conflicted == 0)
        #expect(device.shop.storedOrders.first { $0.id == "shop-amy" }?.firstName == "Amy")
    }

    @Test("keeping mine after a 412 without the shop's copy reads the copy first: sent over its version")
    func keepMineAfterBodiless412() async throws {
        // Given: a conflict whose 412 came without the shop's order; a change sent without
        // If-Match would be refused, so only one made on top of the shop's version gets through
        let device = try await deviceWithCopy()
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(renamedAmy(last: "Mine")))
        device.shop.editOnServer("shop-amy") { $0.lastName = "Theirs" }
        device.shop.refuse(matching: { $0.headers["if-match"] == #""1""# }, status: 412, body: "")
        device.shop.refuse(
            matching: { $0.method == "PUT" && $0.headers["if-match"] == nil }, status: 428, body: "")
        let synced = await PromiseExpectations.value(of: device.online.sync())

        // When
        let offline = await PromiseExpectations.error(
            of: device.offline.resolve(id: "shop-amy", keeping: .mine))
        let heldOffline = await PromiseExpectations.value(of: device.online.syncStatus())?.conflicted
        let report = await PromiseExpectations.value(
            of: device.online.resolve(id: "shop-amy", keeping: .mine))

        // Then
        #expect(synced?.conflicted.map(\.localID) == ["shop-amy"])
        #expect(
            (offline as? OrdersStoreError)?.serviceRequestError == .noNetwork,
            "\(String(describing: offline))")
        #expect(heldOffline == 1)
        #expect(
            report?.sent.count == 1 && report?.conflicted.isEmpty == true, "\(String(describing: report))")
        let shop = device.shop.storedOrders.first { $0.id == "shop-amy" }
        #expect(shop?.lastName == "Mine" && shop?.version == "3")
    }

    @Test("a delete here of an order changed in the shop is a conflict; an edit of one deleted there too")
    func deleteAndEditConflict() async throws {
        // Given
        let device = try await deviceWithCopy()
        _ = await PromiseExpectations.value(of: device.offline.deleteOrder(id: "shop-bob"))
        device.shop.editOnServer("shop-bob") { $0.firstName = "Robert" }
        _ = await PromiseExpectations.value(of: device.offline.updateOrder(renamedAmy(first: "Amelia")))
        device.shop.deleteOnServer("shop-amy")

        // When
        let report = await PromiseExpectations.value(of: device.online.sync())
        let status = await PromiseExpectations.value(of: device.online.syncStatus())

        // Then
        #expect(Set(report?.conflicted.map(\.localID) ?? []) == ["shop-amy", "shop-bob"])
        #expect(device.shop.storedOrders.contains { $0.id == "shop-bob" && $0.firstName == "Robert" })
        #expect(status?.state(of: "shop-amy") == .conflicted(theirs: nil, deletedOnServer: true))
    }

    @Test("online, an update of a copy the shop changed since is a conflict kept to settle, not an overwrite")
    func onlineUpdateOfStaleCopy() async throws {
        // Given
        let device = try await deviceWithCopy()
        device.shop.editOnServer("shop-amy") { $0.lastName = "Theirs" }

        // When
        let error = await PromiseExpectations.error(of: device.online.updateOrder(renamedAmy(last: "Mine")))
        let held = await PromiseExpectations.value(of: device.online.syncStatus())
        let shopBefore = device.shop.storedOrders.first { $0.id == "shop-amy" }?.lastName
        _ = await PromiseExpectations.value(of: device.online.resolve(id: "shop-amy", keeping: .mine))

        // Then: refused as a conflict with the shop's side, kept (as an offline edit's would be),
        // and keeping mine sends it over the shop's version
        guard case .conflict(let theirs)? = (error as? OrdersStoreError)?.reason else {
            Issue.record("not a conflict: \(String(describing: error))")
            return
        }
        #expect(theirs?.lastName == "Theirs")
        #expect(shopBefore == "Theirs")
        guard case .conflicted(let kept?, false)? = held?.state(of: "shop-amy") else {
            Issue.record("the conflict was not kept: \(String(describing: held))")
            return
        }
        #expect(try APIClient.decode(Order.self, from: kept).lastName == "Theirs")
        #expect(device.shop.storedOrders.first { $0.id == "shop-amy" }?.lastName == "Mine")
    }
}
