import Foundation
import OrdersTesting
import Testing
import XCTest

// The seeds' presenter (000), worker (001) and interactor (002) tests, ported to Swift 6 with
// promises: the presenter formats for display and asks its output to display; the worker asks its
// store and returns what it fetched; fetching goes through the worker to the presenter.

// MARK: - Test doubles

@Suite("List orders: the screen is told before the promise settles")
@MainActor
struct ListOrdersSettlingTests {
    @Test("when the fetch's promise settles, the screen already has the orders, or the error's message")
    func outputUpdatedWhenPromiseSettles() async {
        // Given: a store answering from another queue, and one failing
        let output = ListOrdersPresenterOutputSpy()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: OrdersMemStoreSpy()), output: output, formatter: pinnedFormatter
        )
        let failingOutput = ListOrdersPresenterOutputSpy()
        let failing = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: FailingOrdersStore()), output: failingOutput,
            formatter: pinnedFormatter)

        // When
        let shown = await PromiseExpectations.seenWhenSettled(presenter.fetchOrders()) {
            output.fetchOrdersViewModel?.displayedOrders.count
        }
        let failed = await PromiseExpectations.seenWhenSettled(failing.fetchOrders()) {
            failingOutput.errorMessage
        }

        // Then
        #expect(shown == .some(Order.mocks().count))
        #expect(failed??.isEmpty == false)
    }

    @Test("a cancelled listing shows no error message, and the promise says it was cancelled")
    @MainActor
    func cancelledListingIsNotAnError() async {
        // Given
        let store = CancelledOrdersStore()
        let output = RecordingOrdersOutput()
        let presenter = ListOrdersPresenter(worker: OrdersWorker(ordersStore: store), output: output)

        // When
        let error = await PromiseExpectations.error(of: presenter.fetchOrders())

        // Then
        #expect(output.errors.isEmpty)
        #expect(error?.isCancellation == true)
    }
}

/// A store whose listing is cancelled, as when the screen goes away mid-request.
final class CancelledOrdersStore: OrdersStore {
    func fetchOrders() -> Promise<[Order]> { Promise(error: CancellationError()) }
    func fetchOrder(id: String) -> Promise<Order> { Promise(error: CancellationError()) }
    func createOrder(_ order: Order) -> Promise<Order> { Promise(error: CancellationError()) }
    func updateOrder(_ order: Order) -> Promise<Order> { Promise(error: CancellationError()) }
    func deleteOrder(id: String) -> Promise<Order> { Promise(error: CancellationError()) }
}
