import Foundation
import Notes
import OfflineKit
import OrdersTesting
import Testing

/// One event, one outcome, whatever feature it meets: an edit sent online over a version the API
/// moved on from (a `412`) keeps the conflict for the user to settle, in Orders as in Notes.
@Suite("An online 412: the same outcome in Orders and Notes")
struct OnlineConflictTests {
    /// Whether `state` is a conflict that kept the API's copy.
    static func keptTheirs(_ state: SyncState?) -> Bool {
        guard case .conflicted(let theirs?, false)? = state else { return false }
        return !theirs.isEmpty
    }

    @Test("an online edit of a record changed elsewhere keeps the conflict, both sides, in Orders and Notes")
    func sameOutcome() async throws {
        // Given: the orders listed online, then Amy's changed in the shop by another device
        let device = try DeviceAndShop()
        let amy = try #require(await device.listing(device.online)["shop-amy"])
        device.shop.editOnServer("shop-amy") { $0.lastName = "Theirs" }
        // and the notes listed online, then note n1 changed elsewhere
        let folder = TemporaryFolder("OnlineConflictTests")
        let api = TestResourceAPI(
            collection: "notes", resources: [Note(id: "n1", title: "Shopping", text: "milk")])
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let notes = OfflineCollection<Note>(
            database: try Database(at: folder.file("notes.sqlite")), collection: "notes",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        ).model(version: Note.model.version, steps: Note.model.steps)
        _ = await PromiseExpectations.value(of: notes.list())
        api.edit("n1", ["text": "bread"])

        // When: each is edited online over the version it listed
        var mine = amy
        mine.lastName = "Mine"
        let orderError = await PromiseExpectations.error(of: device.online.updateOrder(mine))
        let noteError = await PromiseExpectations.error(of: notes.update(id: "n1") { $0.text = "eggs" })

        // Then: both refused as a conflict with the API's side, both kept to settle, neither
        // API written over
        guard case .conflict(let theirs?)? = (orderError as? OrdersStoreError)?.reason else {
            Issue.record("the order's edit did not fail as a conflict: \(String(describing: orderError))")
            return
        }
        #expect(theirs.lastName == "Theirs")
        #expect((noteError as? OfflineConflict<Note>)?.theirs?.text == "bread")
        let orders = await PromiseExpectations.value(of: device.online.syncStatus())
        let noteStatus = await PromiseExpectations.value(of: notes.status())
        #expect(Self.keptTheirs(orders?.state(of: "shop-amy")), "\(String(describing: orders))")
        #expect(Self.keptTheirs(noteStatus?.state(of: "n1")), "\(String(describing: noteStatus))")
        #expect(device.shop.storedOrders.first { $0.id == "shop-amy" }?.lastName == "Theirs")
        #expect(api.field("text", of: "n1") == "bread")
    }
}
