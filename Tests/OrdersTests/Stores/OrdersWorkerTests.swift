import Foundation
import OrdersTesting
import Testing
import XCTest

// The seeds' presenter (000), worker (001) and interactor (002) tests, ported to Swift 6 with
// promises: the presenter formats for display and asks its output to display; the worker asks its
// store and returns what it fetched; fetching goes through the worker to the presenter.

// MARK: - Test doubles

final class OrdersWorkerTests: XCTestCase {
    // MARK: Subject under test
    var sut: OrdersWorker!
    var storeSpy: OrdersMemStoreSpy!

    override func setUp() {
        super.setUp()
        storeSpy = OrdersMemStoreSpy()
        sut = OrdersWorker(ordersStore: storeSpy)
    }

    func test_fetchOrders_returnsTheOrders() {
        // Given
        let ordersMemStoreSpy = storeSpy

        // When
        let orders = waitForValue(of: sut.fetchOrders())

        // Then
        XCTAssert(
            ordersMemStoreSpy?.fetchOrdersCalled == true,
            "Calling fetchOrders() should ask the data store for a list of orders")
        XCTAssertEqual(orders?.count, 2, "fetchOrders() should return a list of orders")
        XCTAssertEqual(orders?.map(\.id), ["def456", "abc123"])
    }
}

// MARK: - The moment the promise settles

/// A store whose every call fails as when offline with no copy.
final class FailingOrdersStore: OrdersStore {
    func fetchOrders() -> Promise<[Order]> { Promise(error: ServiceRequestError.noData) }
    func fetchOrder(id: String) -> Promise<Order> { Promise(error: ServiceRequestError.noData) }
    func createOrder(_ order: Order) -> Promise<Order> { Promise(error: ServiceRequestError.noData) }
    func updateOrder(_ order: Order) -> Promise<Order> { Promise(error: ServiceRequestError.noData) }
    func deleteOrder(id: String) -> Promise<Order> { Promise(error: ServiceRequestError.noData) }
}
