public import Promises
public import Services

/// The orders store an app uses: the API when it answers, the app's database when it cannot.
///
/// Listing follows ``NetworkFallback``: fresh orders replace the offline copy in one transaction,
/// and offline the copy is shown with when it was saved. Orders created on this device while the
/// API could not be reached are kept in the database apart from that copy, and listed with it,
/// online or not, so nothing entered is lost. Fetching one order, updating and deleting fall back
/// to the database the same way when the API cannot be reached (deleting also when the API does
/// not know the order, as with one created offline). Other refusals of the API (a 4xx, a 5xx) are
/// passed on.
public struct FallbackOrdersStore: OrdersStore {
    private let api: OrdersAPI
    private let cache: OrdersSQLiteStore
    private let fallback: NetworkFallback<OrdersSQLiteStore>

    /// Makes the store.
    ///
    /// - Parameters:
    ///   - api: The shop's API.
    ///   - cache: The app's database store: the offline copy, and the orders created offline.
    ///   - reachability: Whether to try the network at all; by default always.
    public init(
        api: OrdersAPI, cache: OrdersSQLiteStore, reachability: any NetworkReachability = .assumeReachable
    ) {
        self.api = api
        self.cache = cache
        fallback = NetworkFallback(cache: cache, reachability: reachability)
    }

    /// All orders, newest first, fresh or from the offline copy, with those created on this device.
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
        let cache = cache
        return fallback.fetch { api.fetchOrders() }
            .then(on: .inline) { fetched -> Promise<Fetched<[Order]>> in
                guard fetched.source == .network else { return .value(fetched) }
                return cache.deviceOrders().map(on: .inline) { deviceOrders in
                    fetched.map { ($0 + deviceOrders).sorted { $0.date > $1.date } }
                }
            }
            .failing(as: .fetchOrders)
    }

    /// One order, from the API, or from the database when the API cannot be reached.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    public func fetchOrder(id: String) -> Promise<Order> {
        let cache = cache
        return api.fetchOrder(id: id).recover(on: .inline) { error -> Promise<Order> in
            guard Self.isConnectivityFailure(error) || Self.isNotFound(error) else { throw error }
            return cache.fetchOrder(id: id)
        }
    }

    /// Sends a new order to the API and keeps it in the offline copy; when the API cannot be
    /// reached, keeps it in the database as created on this device.
    ///
    /// - Parameter order: The order; its `id` and `total` are ignored.
    /// - Returns: A promise of the order as stored.
    public func createOrder(_ order: Order) -> Promise<Order> {
        let cache = cache
        return mirrored(api.createOrder(order)).recover(on: .inline) { error -> Promise<Order> in
            guard Self.isConnectivityFailure(error) else { throw error }
            return cache.createOrder(order)
        }
    }

    /// Replaces an order in the API and in the database; only in the database when the API cannot
    /// be reached.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as stored.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        let cache = cache
        return mirrored(api.updateOrder(order)).recover(on: .inline) { error -> Promise<Order> in
            guard Self.isConnectivityFailure(error) || Self.isNotFound(error) else { throw error }
            return cache.updateOrder(order)
        }
    }

    /// Deletes an order in the API and in the database; only in the database when the API cannot
    /// be reached or does not know the order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order.
    public func deleteOrder(id: String) -> Promise<Order> {
        let cache = cache
        return api.deleteOrder(id: id)
            .then(on: .inline) { deleted in
                cache.deleteOrder(id: id).map(on: .inline) { _ in deleted }
                    .recover(on: .inline) { _ in Guarantee.value(deleted) }
                    .asPromise()
            }
            .recover(on: .inline) { error -> Promise<Order> in
                guard Self.isConnectivityFailure(error) || Self.isNotFound(error) else { throw error }
                return cache.deleteOrder(id: id)
            }
    }

    /// Once the API accepted `write`, puts its answer in the offline copy; a failing database does
    /// not undo what the API accepted.
    private func mirrored(_ write: Promise<Order>) -> Promise<Order> {
        let cache = cache
        return write.then(on: .inline) { order in
            cache.keepAPICopy(of: order)
                .map(on: .inline) { order }
                .recover(on: .inline) { _ in Guarantee.value(order) }
                .asPromise()
        }
    }

    private static func isNotFound(_ error: any Error) -> Bool {
        guard let error = error as? OrdersStoreError, case .notFound = error.reason else { return false }
        return true
    }

    private static func isConnectivityFailure(_ error: any Error) -> Bool {
        guard let error = error as? OrdersStoreError, case .storage(let reason) = error.reason else {
            return false
        }
        return reason.isConnectivityFailure
    }
}
