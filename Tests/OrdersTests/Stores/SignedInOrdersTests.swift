import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// The orders of a signed-in shop belong to the account that listed them: every read, a page
/// included, is checked against the one signed in now.
@Suite("Orders: signed-in reads")
struct SignedInOrdersTests {
    let folder = TemporaryFolder("SignedInOrdersTests")

    @Test("a page of orders kept for Amy, read or watched, is refused to Bob, as every other read is")
    func pageIsCheckedAgainstTheAccount() async throws {
        // Given: Amy listed the shop's orders; then Bob signed in on the same device
        let shop = TestOrdersShop(orders: Order.samples)
        let authority = TestTokenAuthority(users: ["amy": "apple", "bob": "battery"]) { _ in shop.respond }
        let server = try TestHTTPServer(responder: authority.respond)
        defer { server.stop() }
        let credentials = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"),
            keeper: FileTokenKeeper(url: folder.file("signin")))
        let store = FallbackOrdersStore(
            api: OrdersAPI(
                client: APIClient(baseURL: server.baseURL, retry: .never).authorized(by: credentials)),
            cache: OrdersSQLiteStore(database: try Database(at: folder.file("orders.sqlite"))))
        _ = await PromiseExpectations.value(of: credentials.signIn(user: "amy", password: "apple"))
        _ = await PromiseExpectations.value(of: store.fetchOrders())
        let amys = await PromiseExpectations.value(of: store.fetchOrdersPage(after: nil, limit: 10))
        try credentials.signOut()
        _ = await PromiseExpectations.value(of: credentials.signIn(user: "bob", password: "battery"))

        // When
        let bobs = await PromiseExpectations.error(of: store.fetchOrdersPage(after: nil, limit: 10))
        let watched = DeliveryRecorder<Result<OrdersSnapshot, OrdersStoreError>>()
        let observation = store.watchOrders(first: 10, on: .inline) { watched.record($0) }
        let bobsWatch = await watched.next()
        observation?.cancel()

        // Then
        #expect(amys?.orders.isEmpty == false)
        #expect(bobs.map { FailureClass($0).kind } == .signedOut, "\(String(describing: bobs))")
        guard case .failure(let error)? = bobsWatch else {
            Issue.record("Bob's watch was shown Amy's orders: \(String(describing: bobsWatch))")
            return
        }
        #expect(FailureClass(error).kind == .signedOut, "\(error)")
    }
}
