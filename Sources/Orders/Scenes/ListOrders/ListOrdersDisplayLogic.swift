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

/// CleanStore's name for ``ListOrdersDisplayLogic``: a view controller may conform to either.
public typealias ListOrdersPresenterOutput = ListOrdersDisplayLogic
