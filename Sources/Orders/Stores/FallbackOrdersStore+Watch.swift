public import OfflineKit
public import Promises
public import Services

/// The orders kept on this device, watched and paged, and a scheduler that syncs them.
extension FallbackOrdersStore {
    /// Observes the orders kept on this device (the offline copy with this device's changes):
    /// a listing, a change made here, a sync and another process show up in it.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets each snapshot, or why it cannot be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func watchOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle? {
        // Through the collection: another account's orders are not shown (signed out, or signed
        // in as someone else).
        orders.observe(on: dispatcher) { result in
            onChange(
                result.map { OrdersSnapshot(orders: $0.values, syncStatus: $0.status, savedAt: $0.savedAt) }
                    .mapError { OrdersStoreError.wrapping($0, .fetchOrders) })
        }
    }

    /// Observes the newest `limit` orders kept on this device, read as a page through the
    /// copy's index, with the account check of every read; see
    /// ``OrdersStore/watchOrders(first:on:_:)``.
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
        let orders = orders
        return cache.watchOrders(
            first: limit, on: dispatcher, checking: { try orders.checkAccount(in: $0) }, onChange)
    }

    /// The orders kept on this device that customer `customerID` placed, asked of the offline
    /// copy (`OfflineCollection.query(_:)`), which follows a customer made here from its local
    /// identifier to the shop's: either finds the same orders, before the sync and after. The
    /// status counts the changes of these orders only.
    ///
    /// - Parameter customerID: The customer's identifier, as this device or the shop gave it.
    /// - Returns: A promise of the orders as one page, newest first.
    public func fetchOrders(ofCustomer customerID: String) -> Promise<OrdersPage> {
        orders.query(OfflineQuery(where: .equals("customerId", .text(customerID))))
            .map(on: .inline) { result in
                let theirs = OrdersPage.newest(result.values)
                return OrdersPage(
                    orders: theirs, next: nil, count: theirs.count, syncStatus: result.status,
                    savedAt: result.savedAt)
            }
            .failing(as: .fetchOrders)
    }

    /// A page of the orders kept on this device: the offline copy with this device's changes, as
    /// the last listing, change or sync left it. It does not ask the API; a listing
    /// (``fetchOrdersWithSource(policy:showingCopy:)``) or a sync brings the copy up to date.
    ///
    /// - Parameters:
    ///   - cursor: Where the page starts, or `nil` for the newest.
    ///   - limit: How many orders the page holds at most.
    /// - Returns: A promise of the page.
    public func fetchOrdersPage(after cursor: OrdersPage.Cursor?, limit: Int) -> Promise<OrdersPage> {
        let orders = orders
        return cache.fetchOrdersPage(after: cursor, limit: limit) { try orders.checkAccount(in: $0) }
    }

    /// A scheduler that sends this store's waiting changes by itself (see `SyncScheduler`), the
    /// customers' before the orders' (``syncAll()``), following both outboxes: started, it syncs
    /// at once, then whenever a change is queued, connectivity comes back or the app says it is
    /// active, with the backoff after failures.
    ///
    /// - Parameters:
    ///   - connectivity: Tells when the shop can be reached; on Linux an `APIProbe`, on Apple
    ///     platforms a `PathMonitorConnectivity`.
    ///   - clock: What it waits with.
    /// - Returns: The scheduler, not started.
    public func makeSyncScheduler(
        connectivity: any ConnectivityMonitor = AssumeReachable(), clock: any SyncClock = SystemSyncClock()
    ) -> SyncScheduler {
        let store = self
        let scheduler = SyncScheduler(connectivity: connectivity, clock: clock) { store.syncAll() }
        scheduler.follow(customers.customers.outbox)
        scheduler.follow(cache.outbox)
        return scheduler
    }
}
