import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// One device (a real SQLite file) and the shop behind a real loopback server: `online` reaches
/// it, `offline` knows the network is down.
final class DeviceAndShop: Sendable {
    let shop: TestOrdersShop
    let server: TestHTTPServer
    let folder = TemporaryFolder("OfflineWritesTests")
    let database: Database
    let cache: OrdersSQLiteStore
    let online: FallbackOrdersStore
    let offline: FallbackOrdersStore
    /// The outbox's clock: tests move it past the wait after a failed change.
    let clock = TestClock()

    /// Amy's and Bob's orders, as the shop holds them at the start.
    static let amy = Order(
        id: "shop-amy", date: day(2026, 11, 1), email: "amy@example.com", firstName: "Amy", lastName: "Apple",
        items: [OrderItem(name: "Apple", quantity: 1, unitPrice: 1)], total: 6.99)
    static let bob = Order(
        id: "shop-bob", date: day(2026, 11, 2), email: "bob@example.com", firstName: "Bob",
        lastName: "Battery",
        items: [OrderItem(name: "Battery", quantity: 2, unitPrice: 2)], total: 9.99)

    /// - Parameter orders: What the shop holds at the start; Amy's and Bob's orders by default.
    /// - Throws: When the server or the database cannot be made.
    init(orders: [Order] = [DeviceAndShop.amy, DeviceAndShop.bob]) throws {
        shop = TestOrdersShop(orders: orders)
        server = try TestHTTPServer(responder: shop.respond)
        database = try Database(at: folder.file("orders.sqlite"))
        let clock = clock
        cache = OrdersSQLiteStore(database: database, now: { clock.now })
        // Reads are not retried: these tests count the shop's requests one by one (a flapping shop
        // fails every other one), and GET retries have tests of their own.
        online = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)),
            cache: cache)
        // Known to be offline, as `--offline` is: a port where nothing listens may be taken by
        // another test's server meanwhile. Real connection failures are tested where they matter.
        offline = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: server.baseURL, timeout: 30)), cache: cache,
            reachability: Unreachable())
    }

    deinit {
        server.stop()
    }

    /// The orders `store` lists, by id, waiting `timeout` seconds at most (a listing of thousands
    /// on a loaded machine needs more than the default).
    func listing(_ store: FallbackOrdersStore, timeout: TimeInterval = 60) async -> [String: Order] {
        let orders = await PromiseExpectations.value(of: store.fetchOrders(), timeout: timeout) ?? []
        return Dictionary(orders.map { ($0.id ?? "", $0) }) { first, _ in first }
    }

    /// How many rows of the file are marked as changed on this device, hidden ones included.
    func rowsChangedHere() async -> Int? {
        await PromiseExpectations.value(
            of: database.read { try $0.query("SELECT id FROM orders WHERE origin = 'device'").count })
    }

    /// The idempotency keys of the outbox's entries, in order.
    func keys() async -> [String] {
        await PromiseExpectations.value(of: cache.outbox.entries())?.map(\.idempotencyKey) ?? []
    }
}

/// The network known to be down.
struct Unreachable: ConnectivityMonitor {
    var isReachable: Bool { false }
}
