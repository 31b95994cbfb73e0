import Foundation
import OfflineKit
import OrdersTesting
import Testing

@Suite("CustomersStore")
struct CustomersStoreTests {
    let folder = TemporaryFolder("CustomersStoreTests")

    @Test("retrying or discarding a customer with no change waiting is notFound")
    func retryAndDiscardWithoutAChange() async throws {
        // Given: a store with nothing waiting, its shop known to be unreachable
        let store = CustomersStore(
            database: try Database(at: folder.file("orders.sqlite")),
            client: APIClient(baseURL: URL(fileURLWithPath: "/")), reachability: Unreachable())

        // When
        let retried = await PromiseExpectations.error(of: store.retry(id: "nobody")) as? OrdersStoreError
        let discarded = await PromiseExpectations.error(of: store.discard(id: "nobody")) as? OrdersStoreError

        // Then
        #expect(retried == OrdersStoreError(.updateOrder, .notFound(id: "nobody")))
        #expect(discarded == OrdersStoreError(.deleteOrder, .notFound(id: "nobody")))
    }
}
