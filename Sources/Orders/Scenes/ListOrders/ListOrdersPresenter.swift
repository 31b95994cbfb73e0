public import Foundation
public import Promises
public import Services

/// Fetches orders through the worker and formats them for the list: dates in short style, totals
/// as currency, names as "First Last".
@MainActor
public final class ListOrdersPresenter {
    /// The screen, held weakly: the screen owns its presenter.
    public weak var output: (any ListOrdersDisplayLogic)?
    /// Where orders come from.
    public let worker: OrdersWorker
    private let formatter: OrderFormatter
    let sourceNotice: SourceNotice
    /// Where the orders on screen came from when they were last fetched, for a watching screen.
    var fetchedSource: DataSource?
    /// Whether the screen watches its orders (``watchOrders()``), whether its first fetch still
    /// runs, and a snapshot that came meanwhile, shown once it ended.
    var watching = false
    var watchFetchRuns = false
    var shownOrders: [Order]?
    var snapshotDuringFetch: Result<OrdersSnapshot, OrdersStoreError>?
    /// How the list is read: see `CachePolicy`.
    public let cachePolicy: CachePolicy

    /// Makes a presenter.
    ///
    /// - Parameters:
    ///   - worker: Where orders come from.
    ///   - output: The screen.
    ///   - formatter: Formats dates and totals; the user's locale, time zone and currency by
    ///     default.
    ///   - now: The clock that tells how old cached orders are.
    ///   - cachePolicy: How the list is read; the API first by default.
    public init(
        worker: OrdersWorker, output: (any ListOrdersDisplayLogic)? = nil,
        formatter: OrderFormatter = OrderFormatter(),
        now: @escaping @Sendable () -> Date = { Date() }, cachePolicy: CachePolicy = .networkFirst
    ) {
        self.worker = worker
        self.output = output
        self.formatter = formatter
        sourceNotice = SourceNotice(
            noun: "orders", server: "The shop's server", locale: formatter.locale,
            timeZone: formatter.timeZone,
            now: now)
        self.cachePolicy = cachePolicy
    }

    /// Fetches the orders as ``cachePolicy`` says and shows them, or why they could not be
    /// fetched. With `CachePolicy/cacheThenNetwork` the screen is told twice: the offline copy at
    /// once, with a notice that it is being refreshed, then the fresh orders.
    ///
    /// - Parameter request: The request.
    /// - Returns: A promise that settles after the screen was told the last time: fulfilled with
    ///   the view model shown, or rejected with the ``OrdersStoreError`` whose message was shown.
    public func fetchOrders(
        request: ListOrders.FetchOrders.Request = .init()
    ) -> Promise<ListOrders.FetchOrders.ViewModel> {
        let worker = worker
        return worker.fetchOrdersWithSource(policy: cachePolicy) { copy in
            // Shown on the main queue, where the fresh answer is shown after it.
            Self.withSyncStatus(copy, worker).done { copy, status in
                self.present(copy, status, refreshing: true)
            }
        }
        .then(on: .inline) { fetched in Self.withSyncStatus(fetched, worker).asPromise() }
        .map { fetched, status in
            self.fetchedSource = fetched.source
            self.shownOrders = fetched.value
            return self.present(fetched, status, refreshing: false, watching: self.watching)
        }
        .recover(policy: .allErrors) { error -> Promise<ListOrders.FetchOrders.ViewModel> in
            throw self.failedFetch(error)
        }
    }

    /// `fetched` with the outbox's status; none when it cannot be read.
    private nonisolated static func withSyncStatus(
        _ fetched: Fetched<[Order]>, _ worker: OrdersWorker
    ) -> Guarantee<(Fetched<[Order]>, OutboxStatus)> {
        worker.syncStatus().map(on: .inline) { (fetched, $0) }
            .recover(on: .inline) { _ in Guarantee.value((fetched, OutboxStatus.empty)) }
    }

    /// Shows `fetched` with its changes' `status`; a watching screen says when nothing waits.
    @discardableResult
    func present(
        _ fetched: Fetched<[Order]>, _ status: OutboxStatus, refreshing: Bool, watching: Bool = false
    ) -> ListOrders.FetchOrders.ViewModel {
        presentFetchedOrders(
            response: ListOrders.FetchOrders.Response(
                orders: fetched.value, source: fetched.source, syncStatus: status),
            notice: sourceNotice.text(for: fetched, refreshing: refreshing),
            syncNotice: OrdersSyncWording.list(status) ?? (watching ? OrdersSyncWording.nothingWaits : nil))
    }

    /// Formats the orders and asks the screen to display them.
    ///
    /// - Parameter response: The orders and where they came from.
    /// - Returns: The view model the screen was given.
    @discardableResult
    public func presentFetchedOrders(response: ListOrders.FetchOrders.Response)
        -> ListOrders.FetchOrders.ViewModel
    {
        presentFetchedOrders(
            response: response, notice: sourceNotice.text(for: response.source),
            syncNotice: OrdersSyncWording.list(response.syncStatus))
    }

    private func presentFetchedOrders(
        response: ListOrders.FetchOrders.Response, notice: String?, syncNotice: String?
    ) -> ListOrders.FetchOrders.ViewModel {
        let viewModel = ListOrders.FetchOrders.ViewModel(
            displayedOrders: displayed(response.orders, response.syncStatus), notice: notice,
            syncNotice: syncNotice)
        output?.displayFetchedOrders(viewModel: viewModel)
        return viewModel
    }

    /// The rows for `orders`, each with its state in `status`.
    func displayed(_ orders: [Order], _ status: OutboxStatus) -> [ListOrders.FetchOrders.ViewModel
        .DisplayedOrder]
    {
        let dates = formatter.dates(orders.map(\.date))
        return zip(orders, dates).map { order, date in
            ListOrders.FetchOrders.ViewModel.DisplayedOrder(
                id: order.id ?? "", date: date, email: order.email, name: formatter.name(order),
                total: formatter.currency(order.total), syncState: status.state(of: order.id ?? ""))
        }
    }

    /// Tells the screen why the orders could not be read, unless the read was cancelled, and
    /// gives the error to throw.
    func failedFetch(_ error: any Error) -> OrdersStoreError {
        let storeError = OrdersStoreError.wrapping(error, .fetchOrders)
        if case .storage(let reason) = storeError.reason, reason.isCancelled { return storeError }
        output?.displayFetchOrdersError(message: storeError.userMessage)
        return storeError
    }
}
