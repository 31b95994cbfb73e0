import Foundation
import OfflineKit
import OrdersTesting
import Testing

@testable import Services

/// How much a sync costs the file: the statements and writes `demo sync` of one customer and one
/// order made offline runs, counted by the connection, held to a ceiling.
@Suite("The walk of a sync")
struct SyncWalkTests {
    let folder = TemporaryFolder("SyncWalkTests")

    @Test("a customer and an order naming it, made offline, are sent in at most 4 writes and 47 statements")
    func customerAndOrderMadeOffline() async throws {
        // Given: Eve and her order made offline, and a shop that checks an order's customer
        let customers = TestResourceAPI.customers()
        let shop = TestOrdersShop(orders: [], customers: customers)
        let server = try TestHTTPServer { request in
            request.path.hasPrefix("/customers") ? customers.respond(request) : shop.respond(request)
        }
        defer { server.stop() }
        let database = try Database(at: folder.file("orders.sqlite"))
        let cache = OrdersSQLiteStore(database: database)
        let api = OrdersAPI(client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never))
        let offline = FallbackOrdersStore(api: api, cache: cache, reachability: Unreachable())
        let online = FallbackOrdersStore(api: api, cache: cache)
        let eve = await PromiseExpectations.value(
            of: offline.customers.createCustomer(Customer(name: "Eve Elder", email: "eve@example.com")))
        var order = Order.samples[0]
        (order.id, order.version, order.customerID) = (nil, nil, eve?.id)
        _ = await PromiseExpectations.value(of: offline.createOrder(order))
        let before = await PromiseExpectations.value(of: database.read { $0.work })

        // When
        let report = await PromiseExpectations.value(
            of: online.syncAll())
        let after = await PromiseExpectations.value(of: database.read { $0.work })
        let (start, end) = (try #require(before), try #require(after))
        let walk = end.since(start)

        // Then
        #expect(report?.sent.count == 2)
        #expect(shop.storedOrders.first?.customerID == "cus-1")
        #expect(walk.writes <= 4, "\(walk.writes) writes")
        // 46, and one read that finds no file waiting to be uploaded (`OfflineAttachments.sync`).
        #expect(walk.statements <= 47, "\(walk.statements) statements")
    }
}
