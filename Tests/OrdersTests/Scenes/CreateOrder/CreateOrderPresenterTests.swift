import Foundation
import OrdersTesting
import XCTest

// CleanStore's create-order form without UIKit: the shipping methods, the expiration date,
// validating the form and placing the order.

// MARK: - Test doubles

final class CreateOrderDisplayLogicSpy: CreateOrderDisplayLogic {
    // MARK: Method call expectations
    var displayExpirationDateCalled = false
    var displayCreatedOrderCalled = false
    var displayValidationErrorsCalled = false

    // MARK: Argument expectations
    var formatExpirationDateViewModel: CreateOrder.FormatExpirationDate.ViewModel?
    var createOrderViewModel: CreateOrder.CreateOrder.ViewModel?
    var errorMessage: String?

    // MARK: Spied methods
    func displayExpirationDate(viewModel: CreateOrder.FormatExpirationDate.ViewModel) {
        displayExpirationDateCalled = true
        formatExpirationDateViewModel = viewModel
    }

    func displayCreatedOrder(viewModel: CreateOrder.CreateOrder.ViewModel) {
        displayCreatedOrderCalled = true
        createOrderViewModel = viewModel
    }

    func displayValidationErrors(viewModel: CreateOrder.CreateOrder.ViewModel) {
        displayValidationErrorsCalled = true
        createOrderViewModel = viewModel
    }

    func displayCreateOrderError(message: String) {
        errorMessage = message
    }
}

// MARK: - Tests

@MainActor
final class CreateOrderPresenterTests: XCTestCase {
    // MARK: Subject under test
    var sut: CreateOrderPresenter!
    var output: CreateOrderDisplayLogicSpy!
    var store: OrdersMemStore!

    override func setUp() async throws {
        output = CreateOrderDisplayLogicSpy()
        store = OrdersMemStore(orders: [], makeID: { "new-1" })
        sut = CreateOrderPresenter(
            worker: OrdersWorker(ordersStore: store), output: output, formatter: pinnedFormatter,
            now: { day(2026, 11, 21) })
    }

    func test_shippingMethods_count_equalsTheAvailableMethods() async {
        XCTAssertEqual(sut.shippingMethods.count, 3)
    }

    func test_shippingMethodPicker_displaysTheTitles() async {
        // Then
        let expectedTitles = ["Standard Shipping", "Two-Day Shipping", "One-Day Shipping"]
        XCTAssertEqual(
            sut.shippingMethods, expectedTitles, "The shipping method picker should display proper titles")
    }

    func test_shippingMethod_selected_isTheOneGiven() async {
        // When
        let selected = sut.shippingMethod(at: 1)

        // Then
        XCTAssertEqual(selected?.speed.title, "Two-Day Shipping")
        XCTAssertNil(sut.shippingMethod(at: 3))
    }

    func test_expirationDatePicker_valueChanged_formatsTheSelectedDate() async {
        // Given
        let selectedDate = day(2007, 6, 29)

        // When
        sut.formatExpirationDate(request: CreateOrder.FormatExpirationDate.Request(date: selectedDate))

        // Then
        XCTAssert(
            output.displayExpirationDateCalled,
            "Changing the expiration date should format the expiration date")
        XCTAssertEqual(output.formatExpirationDateViewModel?.date, "6/29/07")
    }

    func test_createOrder_validForm_createsThroughTheWorkerAndDisplaysIt() async {
        // When
        let order = await value(
            of: sut.createOrder(request: CreateOrder.CreateOrder.Request(order: validOrder())))

        // Then
        XCTAssertEqual(order?.id, "new-1")
        XCTAssert(output.displayCreatedOrderCalled)
        let displayed = output.createOrderViewModel?.displayedOrder
        XCTAssertEqual(displayed?.id, "new-1")
        XCTAssertEqual(displayed?.name, "Carol Cherry")
        XCTAssertEqual(displayed?.shippingMethod, "Two-Day Shipping")
        XCTAssertEqual(displayed?.card, "•••• 1881")
        XCTAssertEqual(displayed?.total, "$23.49")
        XCTAssertEqual(waitForValue(of: store.fetchOrders())?.count, 1)
    }

    func test_createOrder_wrongForm_displaysAMessagePerFieldAndCreatesNothing() async {
        // Given
        var form = validOrder(email: "carol.at.example")
        form.lastName = ""
        form.shipmentAddress = Address()
        form.paymentMethod = PaymentMethod(
            creditCardNumber: "1234", expirationDate: day(2026, 10, 31), cvv: "12")

        // When
        let error = await error(of: sut.createOrder(request: CreateOrder.CreateOrder.Request(order: form)))

        // Then
        guard case .invalid(let fields)? = (error as? OrdersStoreError)?.reason else {
            return XCTFail("expected invalid, got \(String(describing: error))")
        }
        XCTAssertEqual(
            fields.map(\.field),
            [.lastName, .email, .shipmentAddress, .creditCardNumber, .expirationDate, .cvv])
        XCTAssert(output.displayValidationErrorsCalled)
        XCTAssertFalse(output.displayCreatedOrderCalled)
        let messages = output.createOrderViewModel?.fieldErrors ?? [:]
        XCTAssertEqual(messages[.email], "Enter an email address like name@example.com.")
        XCTAssertEqual(messages[.expirationDate], "This card has expired.")
        XCTAssertEqual(waitForValue(of: store.fetchOrders())?.count, 0)
    }

    func test_validation_cardExpiringThisMonth_isValid() async {
        // Given
        var form = validOrder()
        form.paymentMethod.expirationDate = day(2026, 11, 1)

        // When
        let order = await value(of: sut.createOrder(request: CreateOrder.CreateOrder.Request(order: form)))

        // Then
        XCTAssertNotNil(order)
    }

    func test_createOrder_storeFails_displaysWhy() async throws {
        // Given
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let offline = OrdersAPI(client: APIClient(baseURL: down.baseURL, timeout: 5))
        sut = CreateOrderPresenter(
            worker: OrdersWorker(ordersStore: offline), output: output, now: { day(2026, 11, 21) })

        // When
        let error = await error(
            of: sut.createOrder(request: CreateOrder.CreateOrder.Request(order: validOrder())))

        // Then
        XCTAssertEqual(error as? OrdersStoreError, OrdersStoreError(.createOrder, .storage(.noNetwork)))
        XCTAssertEqual(output.errorMessage, ServiceRequestError.noNetwork.userMessage)
        XCTAssertFalse(output.displayCreatedOrderCalled)
    }

    func test_createOrder_storeRefusesFields_displaysThemPerField() async throws {
        // Given: a store with a rule the form does not know
        let refusing = RefusingOrdersStore(
            errors: [OrderFieldError(field: .email, message: "This shop takes no email at that domain.")])
        sut = CreateOrderPresenter(
            worker: OrdersWorker(ordersStore: refusing), output: output, now: { day(2026, 11, 21) })

        // When
        let error = await error(
            of: sut.createOrder(request: CreateOrder.CreateOrder.Request(order: validOrder())))

        // Then: shown beside the field, as the form's own errors are
        guard case .invalid(let fields)? = (error as? OrdersStoreError)?.reason else {
            return XCTFail("expected invalid, got \(String(describing: error))")
        }
        XCTAssertEqual(fields.map(\.field), [.email])
        XCTAssert(output.displayValidationErrorsCalled)
        XCTAssertEqual(
            output.createOrderViewModel?.fieldErrors, [.email: "This shop takes no email at that domain."])
        XCTAssertNil(output.errorMessage)
    }
}

/// A store whose every create is refused with `errors`.
final class RefusingOrdersStore: OrdersStore, Sendable {
    let errors: [OrderFieldError]
    init(errors: [OrderFieldError]) { self.errors = errors }
    func fetchOrders() -> Promise<[Order]> { Promise(error: ServiceRequestError.noData) }
    func fetchOrder(id: String) -> Promise<Order> { Promise(error: ServiceRequestError.noData) }
    func createOrder(_ order: Order) -> Promise<Order> {
        Promise(error: OrdersStoreError(.createOrder, .invalid(errors)))
    }
    func updateOrder(_ order: Order) -> Promise<Order> { Promise(error: ServiceRequestError.noData) }
    func deleteOrder(id: String) -> Promise<Order> { Promise(error: ServiceRequestError.noData) }
}
