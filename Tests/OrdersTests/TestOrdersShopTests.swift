import Foundation
import OrdersTesting
import Testing

/// The orders shop tests run against, checked as a backend would be: what it names, computes and
/// refuses.
@Suite("TestOrdersShop")
struct TestOrdersShopTests {
    @Test(
        "the shop names created orders srv-N, computes their total, refuses a body that is not an order, and lists newest first"
    )
    func createsAsTheShopDoes() async throws {
        // Given
        let shop = TestOrdersShop(orders: [seedOrder])
        let server = try TestHTTPServer(responder: shop.respond)
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)

        // When: an order claiming a total of 999, and a body that is no order
        let created = await PromiseExpectations.value(
            of: client.post("orders", body: validOrder(), as: Order.self))
        let refused = await PromiseExpectations.error(
            of: client.post("orders", body: ["email": "x@example.com"], as: Order.self))

        // Then
        #expect(created?.id == "srv-1")
        #expect(created?.version == "1")
        #expect(created?.total == Decimal(string: "23.49"))
        #expect(
            (refused as? APIError).map { if case .httpStatus(400, _) = $0 { true } else { false } } == true)
        #expect(shop.storedOrders.map(\.id) == ["srv-1", "abc123"])
        #expect(shop.storedOrders.first?.total == Decimal(string: "23.49"))
    }

    @Test(
        "an order changed on the server as another device would has its total computed again and a new version"
    )
    func editOnServer() {
        // Given
        var order = validOrder()
        order.id = "o1"
        let shop = TestOrdersShop(orders: [order])

        // When: one more basket
        shop.editOnServer("o1") { $0.items[1].quantity = 2 }

        // Then: 3 × 2.50 + 2 × 10.00 + 5.99
        #expect(shop.storedOrders.first?.total == Decimal(string: "33.49"))
        #expect(shop.storedOrders.first?.version == "2")
    }
}
