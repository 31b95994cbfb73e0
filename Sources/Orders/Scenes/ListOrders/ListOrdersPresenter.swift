public import Foundation
public import Promises
import Services

/// Fetches orders through the worker and formats them for the list: dates in short style, totals
/// as currency, names as "First Last".
@MainActor
public final class ListOrdersPresenter {
    /// The screen, held weakly: the screen owns its presenter.
    public weak var output: (any ListOrdersDisplayLogic)?
    /// Where orders come from.
    public let worker: OrdersWorker
    private let formatter: OrderFormatter
    private let now: @Sendable () -> Date

    /// Makes a presenter.
    ///
    /// - Parameters:
    ///   - worker: Where orders come from.
    ///   - output: The screen.
    ///   - formatter: Formats dates and totals; the user's locale, time zone and currency by
    ///     default.
    ///   - now: The clock that tells how old cached orders are.
    public init(
        worker: OrdersWorker, output: (any ListOrdersDisplayLogic)? = nil,
        formatter: OrderFormatter = OrderFormatter(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.worker = worker
        self.output = output
        self.formatter = formatter
        self.now = now
    }

    /// Fetches the orders and shows them, or why they could not be fetched.
    ///
    /// - Parameter request: The request.
    /// - Returns: A promise that settles after the screen was told: fulfilled with the view model
    ///   shown, or rejected with the ``OrdersStoreError`` whose message was shown.
    public func fetchOrders(
        request: ListOrders.FetchOrders.Request = .init()
    ) -> Promise<ListOrders.FetchOrders.ViewModel> {
        let worker = worker
        return worker.fetchOrdersWithSource()
            .then(on: .inline) { fetched in
                worker.syncStatus().map(on: .inline) { (fetched, $0) }
                    .recover(on: .inline) { _ in Guarantee.value((fetched, OutboxStatus.empty)) }.asPromise()
            }
            .map { fetched, status in
                self.presentFetchedOrders(
                    response: ListOrders.FetchOrders.Response(
                        orders: fetched.value, source: fetched.source, syncStatus: status))
            }
            .recover(policy: .allErrors) { error -> Promise<ListOrders.FetchOrders.ViewModel> in
                let storeError = OrdersStoreError.wrapping(error, .fetchOrders)
                if case .storage(let reason) = storeError.reason, reason.isCancelled { throw storeError }
                self.output?.displayFetchOrdersError(message: storeError.userMessage)
                throw storeError
            }
    }

    /// Formats the orders and asks the screen to display them.
    ///
    /// - Parameter response: The orders and where they came from.
    /// - Returns: The view model the screen was given.
    @discardableResult
    public func presentFetchedOrders(response: ListOrders.FetchOrders.Response)
        -> ListOrders.FetchOrders.ViewModel
    {
        let dates = formatter.dates(response.orders.map(\.date))
        let displayedOrders = zip(response.orders, dates).map { order, date in
            ListOrders.FetchOrders.ViewModel.DisplayedOrder(
                id: order.id ?? "", date: date, email: order.email, name: formatter.name(order),
                total: formatter.currency(order.total),
                syncState: response.syncStatus.state(of: order.id ?? ""))
        }
        let viewModel = ListOrders.FetchOrders.ViewModel(
            displayedOrders: displayedOrders, notice: notice(for: response.source),
            syncNotice: OrdersSyncWording.list(response.syncStatus))
        output?.displayFetchedOrders(viewModel: viewModel)
        return viewModel
    }

    private func notice(for source: DataSource) -> String? {
        guard case .cache(let savedAt, let reason) = source else { return nil }
        let why = reason.isServerError ? "The shop's server is having trouble" : "Offline"
        return
            "\(why): showing orders saved on \(formatter.date(savedAt)) (\(Self.age(now().timeIntervalSince(savedAt))))."
    }

    private static func age(_ seconds: Double) -> String {
        switch seconds {
        case ..<60: "just now"
        case ..<3600: "\(Int(seconds / 60)) min ago"
        case ..<86_400: "\(Int(seconds / 3600)) h ago"
        default: "\(Int(seconds / 86_400)) days ago"
        }
    }
}
