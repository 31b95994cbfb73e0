import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// What `FallbackOrdersStore` says of the changes waiting here, orders' and customers' together,
/// and its answers when there is nothing to retry or settle.
@Suite("FallbackOrdersStore: accounts and waiting changes")
struct FallbackOrdersStoreAccountsTests {
    let folder = TemporaryFolder("FallbackOrdersStoreAccountsTests")

    /// A store signed in as Amy, offline: every change waits here.
    func amysOfflineStore() async throws -> (FallbackOrdersStore, TestHTTPServer) {
        let shop = TestOrdersShop(orders: [])
        let authority = TestTokenAuthority(users: ["amy": "apple"]) { _ in shop.respond }
        let server = try TestHTTPServer(responder: authority.respond)
        let credentials = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"),
            keeper: FileTokenKeeper(url: folder.file("signin")))
        _ = await PromiseExpectations.value(of: credentials.signIn(user: "amy", password: "apple"))
        let store = FallbackOrdersStore(
            api: OrdersAPI(
                client: APIClient(baseURL: server.baseURL, retry: .never).authorized(by: credentials)),
            cache: OrdersSQLiteStore(database: try Database(at: folder.file("orders.sqlite"))),
            reachability: Unreachable())
        return (store, server)
    }

    @Test("the account whose orders wait here owns the device, though no customer of its waits")
    func ownerFromTheOrders() async throws {
        // Given
        let (store, server) = try await amysOfflineStore()
        defer { server.stop() }
        _ = await PromiseExpectations.value(of: store.createOrder(validOrder()))

        // When
        let owner = await PromiseExpectations.value(of: store.owner())

        // Then
        #expect(owner == "amy")
    }

    @Test("changes waiting per account, and those an erase drops, count orders' and customers' together")
    func ordersAndCustomersTogether() async throws {
        // Given: two orders and one customer made offline, and a file attached to an order (its
        // upload waits too, and is erased with the rest)
        let (store, server) = try await amysOfflineStore()
        defer { server.stop() }
        let first = await PromiseExpectations.value(
            of: store.createOrder(validOrder(email: "one@example.com")))
        _ = await PromiseExpectations.value(of: store.createOrder(validOrder(email: "two@example.com")))
        _ = await PromiseExpectations.value(
            of: store.customers.createCustomer(Customer(name: "Carol Cherry", email: "carol@example.com")))
        let receipt = folder.file("receipt.pdf")
        try Data("%PDF-1.4 receipt".utf8).write(to: receipt)
        _ = await PromiseExpectations.value(
            of: store.attach(fileAt: receipt, to: try #require(first?.id), contentType: "application/pdf"))

        // When
        let waiting = await PromiseExpectations.value(of: store.unsentChangesByAccount())
        let dropped = await PromiseExpectations.value(of: store.erase(account: "amy"))

        // Then
        #expect(waiting == ["amy": 3])
        #expect(dropped == 4, "the orders' two, the customer and the upload")
    }

    @Test("the orders waiting for a customer are those that name it, not the others")
    func ordersNamingACustomer() async throws {
        // Given: a customer made here, one order naming it and one naming none
        let device = try DeviceAndShop(orders: [])
        let customer = await PromiseExpectations.value(
            of: device.offline.customers.createCustomer(Customer(name: "Carol", email: "carol@example.com")))
        var naming = validOrder(email: "naming@example.com")
        naming.customerID = try #require(customer?.id)
        let named = await PromiseExpectations.value(of: device.offline.createOrder(naming))
        _ = await PromiseExpectations.value(
            of: device.offline.createOrder(validOrder(email: "none@example.com")))

        // When
        let orders = await PromiseExpectations.value(
            of: device.offline.ordersNaming(customer: try #require(customer?.id)))

        // Then
        #expect(orders == [try #require(named?.id)])
    }

    @Test("retrying or settling an order with nothing refused or conflicted is notFound")
    func nothingToRetryOrSettle() async throws {
        // Given: an order waiting, neither refused nor conflicted
        let device = try DeviceAndShop(orders: [])
        let id = try #require(
            await PromiseExpectations.value(of: device.offline.createOrder(validOrder()))?.id)

        // When
        let retried = await PromiseExpectations.error(of: device.offline.retry(id: id))
        let settled = await PromiseExpectations.error(of: device.offline.resolve(id: id, keeping: .mine))

        // Then
        #expect((retried as? OrdersStoreError)?.reason == .notFound(id: id), "\(String(describing: retried))")
        #expect((settled as? OrdersStoreError)?.reason == .notFound(id: id), "\(String(describing: settled))")
    }
}
