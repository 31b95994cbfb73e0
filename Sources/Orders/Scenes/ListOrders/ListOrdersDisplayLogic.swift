/// The list-orders screen, as its presenter sees it.
@MainActor
public protocol ListOrdersDisplayLogic: AnyObject, Sendable {
    /// Shows the orders.
    ///
    /// - Parameter viewModel: The orders as strings, and the offline notice.
    func displayFetchedOrders(viewModel: ListOrders.FetchOrders.ViewModel)

    /// Shows why the orders could not be fetched.
    ///
    /// - Parameter message: A sentence for the user.
    func displayFetchOrdersError(message: String)

    /// Shows one more page of orders (``ListOrdersPresenter/fetchOrdersPage(after:limit:)``),
    /// after those shown before. By default it shows nothing: a screen that lists in pages
    /// implements it.
    ///
    /// - Parameter viewModel: The page's orders as strings, and where the next page starts.
    func displayOrdersPage(viewModel: ListOrders.FetchOrdersPage.ViewModel)
}

extension ListOrdersDisplayLogic {
    /// Shows nothing: a screen that does not list in pages does not ask for them.
    ///
    /// - Parameter viewModel: The page.
    public func displayOrdersPage(viewModel: ListOrders.FetchOrdersPage.ViewModel) {}
}

/// CleanStore's name for ``ListOrdersDisplayLogic``: a view controller may conform to either.
public typealias ListOrdersPresenterOutput = ListOrdersDisplayLogic
