import Foundation
import OfflineKit
import OrdersTesting
import Testing

@Suite("Fallback orders store")
struct FallbackOrdersStoreTests {
    @Test("online the listing comes from the API and is cached; offline it comes from the cache")
    func onlineThenOffline() async throws {
        // Given
        let backend = TestOrdersShop()
        let server = try TestHTTPServer(handler: backend.handle)
        let folder = TemporaryFolder("OrdersTests")
        let database = try Database(at: folder.file("orders.sqlite"))
        let store = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: server.baseURL, timeout: 30)),
            cache: OrdersSQLiteStore(database: database))
        _ = await PromiseExpectations.value(of: store.fetchOrders())
        let created = await PromiseExpectations.value(of: store.createOrder(validOrder()))

        // When
        let online = await PromiseExpectations.value(of: store.fetchOrdersWithSource())
        server.stop()
        let offline = await PromiseExpectations.value(of: store.fetchOrdersWithSource())
        let one = await PromiseExpectations.value(of: store.fetchOrder(id: created?.id ?? ""))

        // Then
        #expect(online?.source == .network)
        #expect(online?.value.map(\.id) == [created?.id])
        guard case .cache(_, .noNetwork)? = offline?.source else {
            Issue.record("expected the cached listing, got \(String(describing: offline?.source))")
            return
        }
        #expect(offline?.value.map(\.id) == [created?.id])
        #expect(one?.id == created?.id)
    }

    @Test(
        "an update that fails validation is refused with its fields, online or not: nothing sent or queued",
        arguments: [true, false])
    func invalidUpdateIsRefused(online: Bool) async throws {
        // Given: an order the shop and the copy hold
        let shop = TestOrdersShop()
        let server = try TestHTTPServer(handler: shop.handle)
        defer { server.stop() }
        let folder = TemporaryFolder("OrdersTests")
        let store = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: server.baseURL, timeout: 30)),
            cache: OrdersSQLiteStore(database: try Database(at: folder.file("orders.sqlite"))))
        let created = try #require(await PromiseExpectations.value(of: store.createOrder(validOrder())))
        let writes = shop.writes.count

        // When
        var invalid = created
        invalid.email = "not an email"
        let updating =
            online
            ? store
            : FallbackOrdersStore(
                api: OrdersAPI(client: APIClient(baseURL: server.baseURL, timeout: 30)),
                cache: OrdersSQLiteStore(database: try Database(at: folder.file("orders.sqlite"))),
                reachability: Unreachable())
        let error = await PromiseExpectations.error(of: updating.updateOrder(invalid))

        // Then
        guard case .invalid(let fields)? = (error as? OrdersStoreError)?.reason else {
            Issue.record("expected invalid, got \(String(describing: error))")
            return
        }
        #expect(fields.map(\.field) == [.email])
        #expect(shop.writes.count == writes)
        #expect(await PromiseExpectations.value(of: updating.syncStatus())?.waiting == 0)
        let kept = await PromiseExpectations.value(of: store.fetchOrder(id: created.id ?? ""))
        #expect(kept?.email == created.email)
    }

    @Test(
        "offline with nothing cached, the listing is empty, saying nothing is saved yet; the copy alone is noData"
    )
    func offlineWithoutCache() async throws {
        // Given
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let store = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: down.baseURL)),
            cache: OrdersSQLiteStore(database: try Database.inMemory()))

        // When
        let listed = await PromiseExpectations.value(of: store.fetchOrdersWithSource())
        let error = await PromiseExpectations.error(
            of: store.fetchOrdersWithSource(policy: .cacheOnly, showingCopy: { _ in }))

        // Then: orders can be made offline now; the copy alone has none
        #expect(listed?.value == [])
        #expect(listed?.source == .nothingSaved)
        #expect(error as? OrdersStoreError == OrdersStoreError(.fetchOrders, .storage(.noData)))
    }
}
