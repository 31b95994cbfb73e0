public import Promises
public import Services

/// The orders store an app uses: the API when it answers, the app's database when it cannot.
///
/// Listing follows ``NetworkFallback``: fresh orders replace the cached copy in one transaction,
/// and offline the cached copy is shown with when it was saved. Fetching one order falls back to
/// the cache the same way. Creating, updating and deleting go to the API and, once it accepted, to
/// the cache too; offline they are refused with `storage(.noNetwork)` rather than kept only on
/// this device, where the next fresh listing would overwrite them.
public struct FallbackOrdersStore: OrdersStore {
    private let api: OrdersAPI
    private let cache: OrdersSQLiteStore
    private let fallback: NetworkFallback<OrdersSQLiteStore>

    /// Makes the store.
    ///
    /// - Parameters:
    ///   - api: The shop's API.
    ///   - cache: The app's database store, used as the offline copy.
    ///   - reachability: Whether to try the network at all; by default always.
    public init(
        api: OrdersAPI, cache: OrdersSQLiteStore, reachability: any NetworkReachability = .assumeReachable
    ) {
        self.api = api
        self.cache = cache
        fallback = NetworkFallback(cache: cache, reachability: reachability)
    }

    /// All orders, newest first, fresh or cached.
    ///
    /// - Returns: A promise of the orders.
    public func fetchOrders() -> Promise<[Order]> {
        fetchOrdersWithSource().map(on: .inline) { $0.value }
    }

    /// All orders and where they came from.
    ///
    /// - Returns: A promise of the orders and their source.
    public func fetchOrdersWithSource() -> Promise<Fetched<[Order]>> {
        let api = api
        return fallback.fetch { api.fetchOrders() }.failing(as: .fetchOrders)
    }

    /// One order, from the API, or from the cache when the API cannot be reached.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    public func fetchOrder(id: String) -> Promise<Order> {
        let cache = cache
        return api.fetchOrder(id: id).recover(on: .inline) { error -> Promise<Order> in
            guard Self.isConnectivityFailure(error) else { throw error }
            return cache.fetchOrder(id: id)
        }
    }

    /// Sends a new order to the API, then keeps it in the cache.
    ///
    /// - Parameter order: The order; its `id` and `total` are ignored.
    /// - Returns: A promise of the order as the API stored it.
    public func createOrder(_ order: Order) -> Promise<Order> {
        mirrored(api.createOrder(order))
    }

    /// Replaces an order in the API, then in the cache.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as the API stored it.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        mirrored(api.updateOrder(order))
    }

    /// Deletes an order in the API, then in the cache.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order.
    public func deleteOrder(id: String) -> Promise<Order> {
        let cache = cache
        return api.deleteOrder(id: id).then(on: .inline) { deleted in
            cache.deleteOrder(id: id).map(on: .inline) { _ in deleted }.recover(on: .inline) { _ in
                Guarantee.value(deleted)
            }
            .asPromise()
        }
    }

    /// Once the API accepted `write`, puts its answer in the cache; a failing cache does not undo
    /// what the API accepted.
    private func mirrored(_ write: Promise<Order>) -> Promise<Order> {
        let cache = cache
        return write.then(on: .inline) { order in
            cache.load()
                .then(on: .inline) { cached -> Promise<Void> in
                    guard let cached else { return .value(()) }
                    let others = cached.value.filter { $0.id != order.id }
                    return cache.save([order] + others, at: cached.savedAt)
                }
                .map(on: .inline) { order }
                .recover(on: .inline) { _ in Guarantee.value(order) }
                .asPromise()
        }
    }

    private static func isConnectivityFailure(_ error: any Error) -> Bool {
        guard let error = error as? OrdersStoreError, case .storage(let reason) = error.reason else {
            return false
        }
        return reason.isConnectivityFailure
    }
}
