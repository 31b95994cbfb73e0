public import Promises
import Services

extension ListOrdersPresenter {
    /// Shows one page of the orders kept on this device (the offline copy with this device's
    /// changes; see `OrdersStore.fetchOrdersPage(after:limit:)`), for a list too long to hold whole: ask for the first page
    /// with `nil`, then for each next one with the page's `next`, as the user scrolls or, to print
    /// them all, as soon as a page is shown. Each page is read, formatted and given to
    /// ``ListOrdersDisplayLogic/displayOrdersPage(viewModel:)`` before the next is asked for, so
    /// the screen holds its rows and never every order at once.
    ///
    /// A read that fails is shown with ``ListOrdersDisplayLogic/displayFetchOrdersError(message:)``,
    /// as for a full listing.
    ///
    /// - Parameters:
    ///   - cursor: Where the page starts, or `nil` for the newest.
    ///   - limit: How many orders the page holds at most.
    /// - Returns: A promise of the view model the screen was given.
    @discardableResult
    public func fetchOrdersPage(
        after cursor: OrdersPage.Cursor? = nil, limit: Int = 500
    ) -> Promise<ListOrders.FetchOrdersPage.ViewModel> {
        shown(worker.fetchOrdersPage(after: cursor, limit: limit))
    }

    /// Shows the orders of customer `customerID` kept on this device (see
    /// `OrdersStore.fetchOrders(ofCustomer:)`) as one page, with the changes waiting for them: the
    /// customer's local identifier and the shop's find the same orders, before the sync and after.
    ///
    /// - Parameter customerID: The customer's identifier, as this device or the shop gave it.
    /// - Returns: A promise of the view model the screen was given.
    @discardableResult
    public func fetchOrders(ofCustomer customerID: String) -> Promise<ListOrders.FetchOrdersPage.ViewModel> {
        shown(worker.fetchOrders(ofCustomer: customerID))
    }

    /// Gives the screen the page `read` reads, or why it could not be read.
    private func shown(_ read: Promise<OrdersPage>) -> Promise<ListOrders.FetchOrdersPage.ViewModel> {
        read.map { page in
            let viewModel = ListOrders.FetchOrdersPage.ViewModel(
                displayedOrders: self.displayed(page.orders, page.syncStatus), next: page.next,
                count: page.count,
                notice: page.savedAt.flatMap { self.sourceNotice.text(for: .stored(savedAt: $0)) },
                syncNotice: OrdersSyncWording.list(page.syncStatus))
            self.output?.displayOrdersPage(viewModel: viewModel)
            return viewModel
        }
        .recover(policy: .allErrors) { error -> Promise<ListOrders.FetchOrdersPage.ViewModel> in
            throw self.failedFetch(error)
        }
    }
}
