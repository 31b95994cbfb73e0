public import OfflineKit
public import Promises
public import Services

/// Where orders are kept: in memory, in the app's database, or behind the shop's API. The three
/// stores are interchangeable; an ``OrdersWorker`` is given one.
///
/// Every rejection is an ``OrdersStoreError`` naming the operation and what went wrong.
public protocol OrdersStore: Sendable {
    /// All orders, newest first.
    ///
    /// - Returns: A promise of the orders.
    func fetchOrders() -> Promise<[Order]>

    /// All orders and where they came from; stores without a cache report `.network`.
    ///
    /// - Returns: A promise of the orders and their source.
    func fetchOrdersWithSource() -> Promise<Fetched<[Order]>>

    /// All orders as `policy` reads them (see `CachePolicy`); stores without an offline copy
    /// have one way to read and ignore it.
    ///
    /// - Parameters:
    ///   - policy: How the read uses the offline copy and the network.
    ///   - showingCopy: With `CachePolicy/cacheThenNetwork`, given the offline copy at once,
    ///     before the fresh orders; on any thread.
    /// - Returns: A promise of the final orders and their source.
    func fetchOrdersWithSource(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Order]>) -> Void
    ) -> Promise<Fetched<[Order]>>

    /// One order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    func fetchOrder(id: String) -> Promise<Order>

    /// Stores a new order under a new identifier, with its total computed from its items.
    ///
    /// - Parameter order: The order; its `id` and `total` are ignored.
    /// - Returns: A promise of the order as stored.
    func createOrder(_ order: Order) -> Promise<Order>

    /// Replaces an order, recomputing its total.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as stored, or rejected with `notFound`.
    func updateOrder(_ order: Order) -> Promise<Order>

    /// Deletes an order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order that was deleted, or rejected with `notFound`.
    func deleteOrder(id: String) -> Promise<Order>

    /// Which orders have changes made on this device that the shop does not have yet; stores
    /// without an outbox report none.
    ///
    /// - Returns: A promise of each changed order's state and how many changes wait.
    func syncStatus() -> Promise<OutboxStatus>

    /// Observes the orders kept on this device: the snapshot at once, then after every change to
    /// them or their sync state, by this app, its sync, or another process writing the same file;
    /// `nil` from a store that keeps nothing to watch (memory, the API alone).
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets the snapshot at once and after each change, or why it cannot be read.
    /// - Returns: The observation, or `nil`.
    func watchOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle?

    /// Observes the newest `limit` orders kept on this device, as ``watchOrders(on:_:)`` observes
    /// them all: what a screen showing one page watches, so that a copy of any size (a feed that
    /// never ends, say) costs it one page a change. Stores that keep orders on this device read
    /// the page through their index; the default cuts it from ``watchOrders(on:_:)``.
    ///
    /// - Parameters:
    ///   - limit: How many of the newest orders the snapshots hold at most.
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets the snapshot at once and after each change, or why it cannot be read.
    /// - Returns: The observation, or `nil`.
    func watchOrders(
        first limit: Int, on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle?

    /// The orders kept on this device that customer `customerID` placed, newest first, with the
    /// changes waiting for them: read from the offline copy by the stores that keep one (where a
    /// customer made here is found by its local identifier or by the shop's, before and after the
    /// sync), cut from the whole list by the others.
    ///
    /// - Parameter customerID: The customer's identifier, as this device or the shop gave it.
    /// - Returns: A promise of the orders as one page (``OrdersPage/count`` says how many).
    func fetchOrders(ofCustomer customerID: String) -> Promise<OrdersPage>

    /// One page of the orders, newest first: read as a page (an index seek) by the stores that
    /// keep orders on this device, cut from the whole list by the others.
    ///
    /// - Parameters:
    ///   - cursor: Where the page starts: the ``OrdersPage/next`` of the page before, or `nil`.
    ///   - limit: How many orders the page holds at most.
    /// - Returns: A promise of the page.
    func fetchOrdersPage(after cursor: OrdersPage.Cursor?, limit: Int) -> Promise<OrdersPage>
}

extension OrdersStore {
    /// The orders, reported as fresh.
    ///
    /// - Returns: A promise of the orders and their source.
    public func fetchOrdersWithSource() -> Promise<Fetched<[Order]>> {
        fetchOrders().map(on: .inline) { Fetched(value: $0, source: .network) }
    }

    /// ``fetchOrdersWithSource()``, whatever the policy.
    ///
    /// - Parameters:
    ///   - policy: Not used.
    ///   - showingCopy: Not called.
    /// - Returns: A promise of the orders and their source.
    public func fetchOrdersWithSource(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Order]>) -> Void
    ) -> Promise<Fetched<[Order]>> {
        fetchOrdersWithSource()
    }

    /// Nothing waits: every change went to the store at once.
    ///
    /// - Returns: A promise of the empty status.
    public func syncStatus() -> Promise<OutboxStatus> {
        .value(.empty)
    }

    /// Nothing to watch.
    ///
    /// - Parameters:
    ///   - dispatcher: Not used.
    ///   - onChange: Not called.
    /// - Returns: `nil`.
    public func watchOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle? {
        nil
    }

    /// The snapshots of ``watchOrders(on:_:)``, each cut to its newest `limit` orders.
    ///
    /// - Parameters:
    ///   - limit: How many orders at most.
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets each snapshot, or why it cannot be read.
    /// - Returns: The observation, or `nil` when the store keeps nothing to watch.
    public func watchOrders(
        first limit: Int, on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle? {
        watchOrders(on: dispatcher) { result in
            onChange(
                result.map {
                    OrdersSnapshot(
                        orders: OrdersPage.newest($0.orders, limit), syncStatus: $0.syncStatus,
                        savedAt: $0.savedAt)
                })
        }
    }

    /// The customer's orders cut from the whole list, with the status.
    ///
    /// - Parameter customerID: The customer's identifier, compared as it is.
    /// - Returns: A promise of the orders as one page.
    public func fetchOrders(ofCustomer customerID: String) -> Promise<OrdersPage> {
        let store = self
        return store.fetchOrders().then(on: .inline) { orders in
            store.syncStatus().map(on: .inline) { status in
                let theirs = OrdersPage.newest(orders.filter { $0.customerID == customerID })
                return OrdersPage(orders: theirs, next: nil, count: theirs.count, syncStatus: status)
            }
        }
    }

    /// The page cut from the whole list, with the status.
    ///
    /// - Parameters:
    ///   - cursor: Where the page starts.
    ///   - limit: How many orders at most.
    /// - Returns: A promise of the page.
    public func fetchOrdersPage(after cursor: OrdersPage.Cursor?, limit: Int) -> Promise<OrdersPage> {
        let limit = max(1, limit)
        let store = self
        return store.fetchOrders().then(on: .inline) { orders in
            store.syncStatus().map(on: .inline) { status in
                let following = OrdersPage.newest(orders.filter { cursor?.precedes($0) ?? true })
                let page = Array(following.prefix(limit))
                let next = following.count > limit ? page.last.map(OrdersPage.Cursor.init(after:)) : nil
                return OrdersPage(
                    orders: page, next: next, count: cursor == nil ? orders.count : nil, syncStatus: status)
            }
        }
    }
}
