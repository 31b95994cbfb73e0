public import Foundation
import OfflineKit
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
    /// The orders last shown with where they came from: an observed snapshot of the same orders
    /// (only their sync state changed) keeps that source and its notice.
    private var shown: Fetched<ListedOrders>?
    /// The view model the screen was given last.
    private var viewModel: ListOrders.FetchOrders.ViewModel?
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
        let (worker, policy) = (worker, cachePolicy)
        return shownViewModel(listLoad(watching: false).run { Self.fetch(worker, policy, showingCopy: $0) })
    }

    /// The load sequence of the list (see `ListLoad`): the orders with their sync state shown, or
    /// why they could not be read.
    func listLoad(watching: Bool) -> ListLoad<ListedOrders> {
        ListLoad(
            show: { [weak self] fetched, refreshing in
                self?.show(fetched, refreshing: refreshing, watching: watching)
            },
            fail: { [weak self] error in self?.output?.displayFetchOrdersError(message: error.userMessage) })
    }

    /// The view model shown once `load` settled, or its error as an ``OrdersStoreError``.
    func shownViewModel(_ load: Promise<ListedOrders>) -> Promise<ListOrders.FetchOrders.ViewModel> {
        load.map { _ in
            guard let viewModel = self.viewModel else {
                throw OrdersStoreError(.fetchOrders, .storage(.noData))
            }
            return viewModel
        }
        .recover(on: .inline, policy: .allErrors) { throw OrdersStoreError.wrapping($0, .fetchOrders) }
    }

    /// The orders as `policy` reads them, each read (the copy, then the fresh orders) with the
    /// outbox's status; none when it cannot be read.
    nonisolated static func fetch(
        _ worker: OrdersWorker, _ policy: CachePolicy, first limit: Int? = nil,
        showingCopy: @escaping @Sendable (Fetched<ListedOrders>) -> Void
    ) -> Promise<Fetched<ListedOrders>> {
        @Sendable func withStatus(_ fetched: Fetched<[Order]>) -> Guarantee<Fetched<ListedOrders>> {
            worker.syncStatus().recover(on: .inline) { _ in Guarantee.value(OutboxStatus.empty) }
                .map(on: .inline) { status in
                    fetched.map { orders in
                        ListedOrders(
                            orders: limit.map { OrdersPage.newest(orders, $0) } ?? orders, status: status)
                    }
                }
        }
        return worker.fetchOrdersWithSource(policy: policy) { copy in
            withStatus(copy).done(on: .inline, showingCopy)
        }
        .then(on: .inline) { withStatus($0).asPromise() }
    }

    /// Shows the orders; an observed snapshot of the orders shown keeps their source.
    private func show(_ fetched: Fetched<ListedOrders>, refreshing: Bool, watching: Bool) {
        var source = fetched.source
        if case .stored = source, let shown, shown.value.orders == fetched.value.orders {
            source = shown.source
        }
        shown = Fetched(value: fetched.value, source: source)
        viewModel = present(
            Fetched(value: fetched.value.orders, source: source, cacheWriteError: fetched.cacheWriteError),
            fetched.value.status, refreshing: refreshing, watching: watching)
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
    /// gives the error to throw (for a page, which is not a load sequence).
    func failedFetch(_ error: any Error) -> OrdersStoreError {
        let storeError = OrdersStoreError.wrapping(error, .fetchOrders)
        if case .storage(let reason) = storeError.reason, reason.isCancelled { return storeError }
        output?.displayFetchOrdersError(message: storeError.userMessage)
        return storeError
    }
}

/// The orders a list shows and their sync state: what a watching list compares to tell whether
/// the screen must be told again.
struct ListedOrders: Equatable, Sendable {
    var orders: [Order]
    var status: OutboxStatus
}
