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
}

/// The seed's name for ``ListOrdersDisplayLogic``.
public typealias ListOrdersPresenterOutput = ListOrdersDisplayLogic
