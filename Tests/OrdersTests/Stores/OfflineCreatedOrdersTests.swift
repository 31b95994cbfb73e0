import Foundation
import OrdersTesting
import Testing

@Suite("Orders created offline")
struct OfflineCreatedOrdersTests {
    @Test("an order created while the API is unreachable is kept, and survives the next fresh listing")
    func offlineCreateSurvivesRefresh() async throws {
        // Given: offline, with the API's copy cached once
        let backend = TestOrdersShop()
        let server = try TestHTTPServer(handler: backend.handle)
        let folder = TemporaryFolder("OrdersTests")
        let cache = OrdersSQLiteStore(database: try Database(at: folder.file("orders.sqlite")))
        let online = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: server.baseURL, timeout: 30)), cache: cache)
        let fromServer = await PromiseExpectations.value(
            of: online.createOrder(validOrder(email: "server@example.com")))
        _ = await PromiseExpectations.value(of: online.fetchOrders())
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let offline = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: down.baseURL)), cache: cache)

        // When
        let local = await PromiseExpectations.value(
            of: offline.createOrder(validOrder(email: "device@example.com")))
        let offlineList = await PromiseExpectations.value(of: offline.fetchOrders())
        let onlineList = await PromiseExpectations.value(of: online.fetchOrders())

        // Then: listed offline, and sent by the online listing, which now shows the shop's id
        #expect(local?.id != nil)
        #expect(Set(offlineList?.map(\.email) ?? []) == ["server@example.com", "device@example.com"])
        #expect(Set(onlineList?.map(\.email) ?? []) == ["server@example.com", "device@example.com"])
        #expect(fromServer?.id?.hasPrefix("srv-") == true)
        let sent = onlineList?.first { $0.email == "device@example.com" }
        #expect(sent?.id?.hasPrefix("srv-") == true)
        #expect(Set(backend.storedOrders.map(\.email)) == ["server@example.com", "device@example.com"])

        // When: deleting it online, under the shop's id
        let deleted = await PromiseExpectations.value(of: online.deleteOrder(id: sent?.id ?? ""))

        // Then
        #expect(deleted?.email == "device@example.com")
        #expect(
            await PromiseExpectations.value(of: online.fetchOrders())?.map(\.email) == ["server@example.com"])
    }
}
