import Foundation
import OrdersTesting
import Testing

@Suite("OrdersStoreError")
struct OrdersStoreErrorTests {
    @Test("a store error is a cancellation only when its storage's request was cancelled")
    func cancellationIsTheStoragesOnly() {
        // Given
        let cancelled = OrdersStoreError(.fetchOrders, .storage(.cancelled))
        let missing = OrdersStoreError(.fetchOrder, .notFound(id: "abc123"))

        // Then
        #expect(cancelled.isCancelled)
        #expect(!missing.isCancelled)
    }
}
