public import Foundation
public import Promises

/// The create-order form's logic: the shipping methods it offers, the expiration date it shows,
/// checking what was entered, and placing the order through the worker.
@MainActor
public final class CreateOrderPresenter {
    /// The form, held weakly: the form owns its presenter.
    public weak var output: (any CreateOrderDisplayLogic)?
    /// Where orders are created.
    public let worker: OrdersWorker
    /// The shipping methods the form offers, in order: "Standard Shipping", "Two-Day Shipping",
    /// "One-Day Shipping".
    public let shippingMethods = ShipmentMethod.ShippingSpeed.allCases.map(\.title)
    private let formatter: OrderFormatter
    private let now: @Sendable () -> Date

    /// Makes a presenter.
    ///
    /// - Parameters:
    ///   - worker: Where orders are created.
    ///   - output: The form.
    ///   - formatter: Formats dates and totals; the user's locale, time zone and currency by default.
    ///   - now: Today, to tell an expired card.
    public init(
        worker: OrdersWorker, output: (any CreateOrderDisplayLogic)? = nil,
        formatter: OrderFormatter = OrderFormatter(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.worker = worker
        self.output = output
        self.formatter = formatter
        self.now = now
    }

    /// The shipping method at `index` in ``shippingMethods``, or `nil` outside it.
    ///
    /// - Parameter index: The row picked.
    /// - Returns: The method.
    public func shippingMethod(at index: Int) -> ShipmentMethod? {
        ShipmentMethod.ShippingSpeed(rawValue: index).map { ShipmentMethod(speed: $0) }
    }

    /// Formats the expiration date picked and shows it.
    ///
    /// - Parameter request: The date picked.
    public func formatExpirationDate(request: CreateOrder.FormatExpirationDate.Request) {
        presentExpirationDate(response: CreateOrder.FormatExpirationDate.Response(date: request.date))
    }

    /// Shows a date in the expiration date field.
    ///
    /// - Parameter response: The date.
    public func presentExpirationDate(response: CreateOrder.FormatExpirationDate.Response) {
        output?.displayExpirationDate(
            viewModel: CreateOrder.FormatExpirationDate.ViewModel(date: formatter.date(response.date)))
    }

    /// Checks the form; if it is right, creates the order and shows it; otherwise shows a message
    /// per wrong field.
    ///
    /// - Parameter request: The order the form describes.
    /// - Returns: A promise that settles after the form was told: fulfilled with the created order,
    ///   or rejected with the ``OrdersStoreError`` shown (`invalid` with the field errors, or the
    ///   store's failure).
    public func createOrder(request: CreateOrder.CreateOrder.Request) -> Promise<Order> {
        let fieldErrors = request.order.formErrors(now: now())
        guard fieldErrors.isEmpty else {
            presentCreatedOrder(response: CreateOrder.CreateOrder.Response(fieldErrors: fieldErrors))
            return Promise(error: OrdersStoreError(.createOrder, .invalid(fieldErrors)))
        }
        let worker = worker
        return worker.createOrder(request.order)
            .then(on: .inline) { order in
                worker.syncState(of: order.id ?? "").map(on: .inline) { (order, $0) }.asPromise()
            }
            .map { order, syncState in
                self.presentCreatedOrder(
                    response: CreateOrder.CreateOrder.Response(order: order, syncState: syncState))
                return order
            }
            .recover(policy: .allErrors) { error -> Promise<Order> in
                let storeError = OrdersStoreError.wrapping(error, .createOrder)
                if case .invalid(let errors) = storeError.reason {
                    self.presentCreatedOrder(response: CreateOrder.CreateOrder.Response(fieldErrors: errors))
                } else {
                    self.output?.displayCreateOrderError(message: storeError.userMessage)
                }
                throw storeError
            }
    }

    /// Formats what was created, or what is wrong, and shows it.
    ///
    /// - Parameter response: The created order, or the field errors.
    public func presentCreatedOrder(response: CreateOrder.CreateOrder.Response) {
        guard let order = response.order else {
            var messages: [OrderField: String] = [:]
            for error in response.fieldErrors {
                messages[error.field] =
                    messages[error.field].map { "\($0) \(error.message)" } ?? error.message
            }
            output?.displayValidationErrors(
                viewModel: CreateOrder.CreateOrder.ViewModel(fieldErrors: messages))
            return
        }
        let displayed = CreateOrder.CreateOrder.ViewModel.DisplayedOrder(
            id: order.id ?? "", date: formatter.date(order.date), name: formatter.name(order),
            email: order.email,
            shippingMethod: order.shipmentMethod.speed.title, card: order.paymentMethod.maskedCardNumber,
            total: formatter.currency(order.total))
        output?.displayCreatedOrder(
            viewModel: CreateOrder.CreateOrder.ViewModel(
                displayedOrder: displayed, notice: OrdersSyncWording.change(response.syncState)))
    }
}
