public import Promises
import Services

/// A store that reads its orders a page at a time (see ``OrdersPage``); `OrdersWorker` pages
/// any other store by reading it whole.
public protocol OrdersPaging: Sendable {
    /// The orders after `cursor` (from the newest when `nil`), at most `limit` of them.
    ///
    /// - Parameters:
    ///   - cursor: Where the page starts: the ``OrdersPage/next`` of the page before, or `nil`.
    ///   - limit: How many orders the page holds at most; at least 1.
    /// - Returns: A promise of the page.
    func fetchOrders(after cursor: OrdersPage.Cursor?, limit: Int) -> Promise<OrdersPage>
}

extension OrdersSQLiteStore: OrdersPaging {
    /// The orders kept here after `cursor`, at most `limit`, read with the outbox's status and the
    /// copy's date in one read; see ``OrdersPaging/fetchOrders(after:limit:)``.
    ///
    /// - Parameters:
    ///   - cursor: Where the page starts, or `nil` for the newest.
    ///   - limit: How many orders the page holds at most.
    /// - Returns: A promise of the page.
    public func fetchOrders(after cursor: OrdersPage.Cursor?, limit: Int) -> Promise<OrdersPage> {
        let storage = storage
        return read { connection in
            let (orders, next, count) = try OrderRows.page(connection, after: cursor, limit: limit)
            return OrdersPage(
                orders: orders, next: next, count: count,
                syncStatus: try storage.outbox.status(
                    in: connection, changedHere: try storage.idsChangedHere(in: connection)),
                savedAt: try storage.copySavedAt(in: connection))
        }
        .failing(as: .fetchOrders)
    }
}

extension FallbackOrdersStore: OrdersPaging {
    /// A page of the orders kept on this device: the offline copy with this device's changes, as
    /// the last listing, change or sync left it. It does not ask the API; a listing
    /// (``fetchOrdersWithSource(policy:showingCopy:)``) or a sync brings the copy up to date.
    ///
    /// - Parameters:
    ///   - cursor: Where the page starts, or `nil` for the newest.
    ///   - limit: How many orders the page holds at most.
    /// - Returns: A promise of the page.
    public func fetchOrders(after cursor: OrdersPage.Cursor?, limit: Int) -> Promise<OrdersPage> {
        cache.fetchOrders(after: cursor, limit: limit)
    }
}
