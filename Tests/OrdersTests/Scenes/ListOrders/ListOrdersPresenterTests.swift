import Foundation
import OrdersTesting
import Testing
import XCTest

// The seeds' presenter (000), worker (001) and interactor (002) tests, ported to Swift 6 with
// promises: the presenter formats for display and asks its output to display; the worker asks its
// store and returns what it fetched; fetching goes through the worker to the presenter.

// MARK: - Test doubles

final class ListOrdersPresenterOutputSpy: ListOrdersPresenterOutput {
    // MARK: Method call expectations
    var displayFetchedOrdersCalled = false
    var displayFetchOrdersErrorCalled = false

    // MARK: Argument expectations
    var fetchOrdersViewModel: ListOrders.FetchOrders.ViewModel?
    var errorMessage: String?

    // MARK: Spied methods
    func displayFetchedOrders(viewModel: ListOrders.FetchOrders.ViewModel) {
        displayFetchedOrdersCalled = true
        fetchOrdersViewModel = viewModel
    }

    func displayFetchOrdersError(message: String) {
        displayFetchOrdersErrorCalled = true
        errorMessage = message
    }
}

/// A store that answers asynchronously, on another queue, like a real one, and remembers being asked.
final class OrdersMemStoreSpy: OrdersStore, @unchecked Sendable {
    // `@unchecked Sendable` is sound: `fetchOrdersCalled` is only touched while holding `lock`.
    private let lock = NSLock()
    private var called = false
    private let store = OrdersMemStore(orders: Order.mocks())

    // MARK: Method call expectations
    var fetchOrdersCalled: Bool {
        lock.withLock { called }
    }

    // MARK: Spied methods
    func fetchOrders() -> Promise<[Order]> {
        lock.withLock { called = true }
        let store = store
        return Promise { seal in
            DispatchQueue.global().async { store.fetchOrders().done(on: .inline) { seal.fulfill($0) } }
        }
    }

    func fetchOrder(id: String) -> Promise<Order> { store.fetchOrder(id: id) }
    func createOrder(_ order: Order) -> Promise<Order> { store.createOrder(order) }
    func updateOrder(_ order: Order) -> Promise<Order> { store.updateOrder(order) }
    func deleteOrder(id: String) -> Promise<Order> { store.deleteOrder(id: id) }
}

// MARK: - Tests

@MainActor
final class ListOrdersPresenterTests: XCTestCase {
    // MARK: Subject under test
    var sut: ListOrdersPresenter!
    var storeSpy: OrdersMemStoreSpy!

    override func setUp() async throws {
        storeSpy = OrdersMemStoreSpy()
        sut = ListOrdersPresenter(worker: OrdersWorker(ordersStore: storeSpy), formatter: pinnedFormatter)
    }

    func test_presentFetchedOrders_formatsThemForDisplay() async {
        // Given
        let listOrdersPresenterOutputSpy = ListOrdersPresenterOutputSpy()
        sut.output = listOrdersPresenterOutputSpy
        let response = ListOrders.FetchOrders.Response(orders: [seedOrder])

        // When
        sut.presentFetchedOrders(response: response)

        // Then
        let displayedOrders =
            listOrdersPresenterOutputSpy.fetchOrdersViewModel?.displayedOrders ?? []
        XCTAssertEqual(displayedOrders.count, 1)
        for displayedOrder in displayedOrders {
            XCTAssertEqual(
                displayedOrder.id, "abc123", "Presenting fetched orders should properly format order ID")
            XCTAssertEqual(
                displayedOrder.date, "6/29/07", "Presenting fetched orders should properly format order date")
            XCTAssertEqual(
                displayedOrder.email, "amy.apple@clean-swift.com",
                "Presenting fetched orders should properly format email")
            XCTAssertEqual(
                displayedOrder.name, "Amy Apple", "Presenting fetched orders should properly format name")
            XCTAssertEqual(
                displayedOrder.total, "$1.23", "Presenting fetched orders should properly format total")
        }
    }

    func test_presentFetchedOrders_asksTheViewToDisplayThem() async {
        // Given
        let listOrdersPresenterOutputSpy = ListOrdersPresenterOutputSpy()
        sut.output = listOrdersPresenterOutputSpy
        let response = ListOrders.FetchOrders.Response(orders: [seedOrder])

        // When
        sut.presentFetchedOrders(response: response)

        // Then
        XCTAssert(
            listOrdersPresenterOutputSpy.displayFetchedOrdersCalled,
            "Presenting fetched orders should ask view controller to display them")
    }

    func test_fetchOrders_asksTheWorkerAndFormatsTheResult() async {
        // Given
        let listOrdersPresenterOutputSpy = ListOrdersPresenterOutputSpy()
        sut.output = listOrdersPresenterOutputSpy

        // When
        let viewModel = await value(of: sut.fetchOrders(request: ListOrders.FetchOrders.Request()))

        // Then
        XCTAssert(storeSpy.fetchOrdersCalled, "FetchOrders() should ask OrdersWorker to fetch orders")
        XCTAssert(
            listOrdersPresenterOutputSpy.displayFetchedOrdersCalled,
            "FetchOrders() should ask the presenter to format orders result")
        XCTAssertEqual(viewModel?.displayedOrders.map(\.name), ["Bob Battery", "Amy Apple"])
        XCTAssertEqual(viewModel?.displayedOrders.map(\.total), ["$4.56", "$1.23"])
        XCTAssertEqual(listOrdersPresenterOutputSpy.fetchOrdersViewModel, viewModel)
    }

    func test_fetchOrders_failure_displaysTheStoreError() async {
        // Given
        let listOrdersPresenterOutputSpy = ListOrdersPresenterOutputSpy()
        let offline = OrdersAPI(client: APIClient(baseURL: URL(fileURLWithPath: "/"), timeout: 1))
        sut = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: offline), output: listOrdersPresenterOutputSpy)

        // When
        let error = await error(of: sut.fetchOrders())

        // Then
        XCTAssertEqual((error as? OrdersStoreError)?.operation, .fetchOrders)
        XCTAssert(listOrdersPresenterOutputSpy.displayFetchOrdersErrorCalled)
        XCTAssertFalse(listOrdersPresenterOutputSpy.displayFetchedOrdersCalled)
    }
}
