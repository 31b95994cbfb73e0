import OfflineKit
public import Promises
public import Services

/// The orders kept here, watched and paged as the offline kit watches a collection.
extension OrdersSQLiteStore {
    /// Observes the orders kept here through the storage's `OfflineStorage/observe(on:_:)`, with
    /// the outbox's status and the copy's date; see ``OrdersStore/watchOrders(on:_:)``.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets each snapshot, or why it cannot be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func watchOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle? {
        storage.observe(on: dispatcher) { result in
            onChange(
                result.map { OrdersSnapshot(orders: $0.values, syncStatus: $0.status, savedAt: $0.savedAt) }
                    .mapError { OrdersStoreError.wrapping($0, .fetchOrders) })
        }
    }

    /// Observes the newest `limit` orders kept here, read as ``fetchOrdersPage(after:limit:)``
    /// reads the first page; see ``OrdersStore/watchOrders(first:on:_:)``.
    ///
    /// - Parameters:
    ///   - limit: How many of the newest orders the snapshots hold at most.
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets each snapshot, or why it cannot be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func watchOrders(
        first limit: Int, on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle? {
        watchOrders(first: limit, on: dispatcher, checking: { _ in }, onChange)
    }

    /// The first page observed, read after `check` passed in the same transaction.
    func watchOrders(
        first limit: Int, on dispatcher: any Dispatcher,
        checking check: @escaping @Sendable (Connection) throws -> Void,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle {
        let storage = storage
        return storage.observe(on: dispatcher) { connection in
            try check(connection)
            let page = try Self.page(storage, after: nil, limit: limit, in: connection)
            return OrdersSnapshot(orders: page.orders, syncStatus: page.syncStatus, savedAt: page.savedAt)
        } _: { result in
            onChange(result.mapError { OrdersStoreError.wrapping($0, .fetchOrders) })
        }
    }

    /// The orders kept here after `cursor`, at most `limit`, through the `orders_listed` index,
    /// read with the outbox's status and the copy's date in one read; see
    /// ``OrdersStore/fetchOrdersPage(after:limit:)``.
    ///
    /// - Parameters:
    ///   - cursor: Where the page starts, or `nil` for the newest.
    ///   - limit: How many orders the page holds at most.
    /// - Returns: A promise of the page.
    public func fetchOrdersPage(after cursor: OrdersPage.Cursor?, limit: Int) -> Promise<OrdersPage> {
        fetchOrdersPage(after: cursor, limit: limit) { _ in }
    }

    /// The page, read after `check` passed in the same transaction (whose data it is).
    func fetchOrdersPage(
        after cursor: OrdersPage.Cursor?, limit: Int,
        checking check: @escaping @Sendable (Connection) throws -> Void
    ) -> Promise<OrdersPage> {
        let storage = storage
        return read { connection in
            try check(connection)
            return try Self.page(storage, after: cursor, limit: limit, in: connection)
        }
        .failing(as: .fetchOrders)
    }

    /// The page after `cursor` with the outbox's status and the copy's date, in `connection`'s
    /// transaction.
    static func page(
        _ storage: OrdersOfflineStorage, after cursor: OrdersPage.Cursor?, limit: Int,
        in connection: Connection
    ) throws -> OrdersPage {
        let (orders, next, count) = try OrderRows.page(connection, after: cursor, limit: limit)
        return OrdersPage(
            orders: orders, next: next, count: count,
            syncStatus: try storage.outbox.status(
                in: connection, changedHere: try storage.idsChangedHere(in: connection)),
            savedAt: try storage.copySavedAt(in: connection))
    }
}
