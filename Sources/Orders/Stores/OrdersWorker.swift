public import OfflineKit
public import Promises
public import Services

/// Does the order operations for the scenes, through whichever store it was given (memory, the
/// app's database, the API, or the API with its offline copy).
public struct OrdersWorker: Sendable {
    /// The store the operations go to.
    public let ordersStore: any OrdersStore

    /// Makes a worker.
    ///
    /// - Parameter ordersStore: The store the operations go to.
    public init(ordersStore: any OrdersStore) {
        self.ordersStore = ordersStore
    }

    /// All orders, newest first.
    ///
    /// - Returns: A promise of the orders.
    public func fetchOrders() -> Promise<[Order]> {
        ordersStore.fetchOrders()
    }

    /// All orders and where they came from.
    ///
    /// - Returns: A promise of the orders and their source.
    public func fetchOrdersWithSource() -> Promise<Fetched<[Order]>> {
        ordersStore.fetchOrdersWithSource()
    }

    /// All orders as `policy` reads them.
    ///
    /// - Parameters:
    ///   - policy: How the read uses the offline copy and the network.
    ///   - showingCopy: With `CachePolicy/cacheThenNetwork`, given the offline copy at once.
    /// - Returns: A promise of the final orders and their source.
    public func fetchOrdersWithSource(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Order]>) -> Void
    ) -> Promise<Fetched<[Order]>> {
        ordersStore.fetchOrdersWithSource(policy: policy, showingCopy: showingCopy)
    }

    /// One order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order.
    public func fetchOrder(id: String) -> Promise<Order> {
        ordersStore.fetchOrder(id: id)
    }

    /// Creates an order.
    ///
    /// - Parameter order: The order; its `id` and `total` are set by the store.
    /// - Returns: A promise of the order as stored.
    public func createOrder(_ order: Order) -> Promise<Order> {
        ordersStore.createOrder(order)
    }

    /// Replaces an order.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as stored.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        ordersStore.updateOrder(order)
    }

    /// Observes the orders when the store keeps them (the app's database, or the API with its
    /// offline copy): see ``OrdersStore/watchOrders(on:_:)``.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets the orders at once and after each change, or why they cannot be read.
    /// - Returns: The observation, or `nil` when the store keeps nothing to watch (memory, API).
    public func observeOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle? {
        ordersStore.watchOrders(on: dispatcher, onChange)
    }

    /// Observes the newest `limit` orders: see ``OrdersStore/watchOrders(first:on:_:)``.
    ///
    /// - Parameters:
    ///   - limit: How many of the newest orders the snapshots hold at most.
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets the orders at once and after each change, or why they cannot be read.
    /// - Returns: The observation, or `nil` when the store keeps nothing to watch (memory, API).
    public func observeOrders(
        first limit: Int, on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle? {
        ordersStore.watchOrders(first: limit, on: dispatcher, onChange)
    }

    /// The orders of customer `customerID` kept on this device: see
    /// ``OrdersStore/fetchOrders(ofCustomer:)``.
    ///
    /// - Parameter customerID: The customer's identifier, as this device or the shop gave it.
    /// - Returns: A promise of the orders as one page.
    public func fetchOrders(ofCustomer customerID: String) -> Promise<OrdersPage> {
        ordersStore.fetchOrders(ofCustomer: customerID)
    }

    /// One page of the orders, newest first: see ``OrdersStore/fetchOrdersPage(after:limit:)``.
    ///
    /// - Parameters:
    ///   - cursor: Where the page starts: the ``OrdersPage/next`` of the page before, or `nil`.
    ///   - limit: How many orders the page holds at most.
    /// - Returns: A promise of the page.
    public func fetchOrdersPage(after cursor: OrdersPage.Cursor?, limit: Int) -> Promise<OrdersPage> {
        ordersStore.fetchOrdersPage(after: cursor, limit: limit)
    }

    /// Which orders have changes the shop does not have yet, and how many wait.
    ///
    /// - Returns: A promise of the status.
    public func syncStatus() -> Promise<OutboxStatus> {
        ordersStore.syncStatus()
    }

    /// Whether the shop has one order as this device shows it; synced when that cannot be read.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A guarantee of its state.
    public func syncState(of id: String) -> Guarantee<SyncState> {
        ordersStore.syncStatus().map(on: .inline) { $0.state(of: id) }
            .recover(on: .inline) { _ in Guarantee.value(.synced) }
    }

    /// Deletes an order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order.
    public func deleteOrder(id: String) -> Promise<Order> {
        ordersStore.deleteOrder(id: id)
    }
}
