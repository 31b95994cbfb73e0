import Foundation
public import Promises
public import Services

/// The orders store an app uses: the API when it answers, the app's database when it cannot, and
/// nothing the user did offline lost.
///
/// Listing follows `NetworkFallback`: fresh orders replace the offline copy in one transaction,
/// and offline the copy is shown with when it was saved. Writes follow the outbox rule:
///
/// | situation | what the user sees | what reaches the shop |
/// | --- | --- | --- |
/// | the API answers | the change, synced | the change, now |
/// | the API cannot be reached (no network, timed out) | the change, waiting to be sent | the change, at the next ``sync()`` that reaches it, exactly once |
/// | the order has changes still waiting | the change, waiting, behind them | the changes, in order |
/// | the shop refuses a waiting change (4xx) | the change, refused, with the shop's reason | nothing more until ``retry(id:)``; ``discard(id:)`` drops it |
/// | the API refuses the change at once (4xx, 5xx) | the error | nothing |
///
/// A change that cannot reach the API is written with its `Outbox` entry in one transaction.
/// Listings show the waiting changes on top of whatever the API last said, online or not, and
/// ``syncStatus()`` tells each order's `SyncState`. Online, each listing first sends what waits.
public struct FallbackOrdersStore: OrdersStore {
    let api: OrdersAPI
    let cache: OrdersSQLiteStore
    private let reachability: any NetworkReachability
    private let fallback: NetworkFallback<OrdersSQLiteStore>

    /// Makes the store.
    ///
    /// - Parameters:
    ///   - api: The shop's API.
    ///   - cache: The app's database store: the offline copy, and the changes that wait.
    ///   - reachability: Whether to try the network at all; by default always.
    public init(
        api: OrdersAPI, cache: OrdersSQLiteStore, reachability: any NetworkReachability = .assumeReachable
    ) {
        self.api = api
        self.cache = cache
        self.reachability = reachability
        fallback = NetworkFallback(cache: cache, reachability: reachability)
    }

    /// All orders, newest first, fresh or from the offline copy, with this device's changes.
    ///
    /// - Returns: A promise of the orders.
    public func fetchOrders() -> Promise<[Order]> {
        fetchOrdersWithSource().map(on: .inline) { $0.value }
    }

    /// All orders and where they came from, with this device's changes applied. Online, the
    /// changes that wait are sent first.
    ///
    /// - Returns: A promise of the orders and their source.
    public func fetchOrdersWithSource() -> Promise<Fetched<[Order]>> {
        fetchOrdersWithSource(policy: .networkFirst) { _ in }
    }

    /// All orders as `policy` reads them (see `CachePolicy`), with this device's changes
    /// applied. When the read may ask the API, the changes that wait are sent first.
    ///
    /// - Parameters:
    ///   - policy: How the read uses the offline copy and the network.
    ///   - showingCopy: With `CachePolicy/cacheThenNetwork`, given the offline copy at once.
    /// - Returns: A promise of the final orders and their source.
    public func fetchOrdersWithSource(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Order]>) -> Void
    ) -> Promise<Fetched<[Order]>> {
        let api = api
        let cache = cache
        let fallback = fallback
        let synced: Promise<Void> =
            reachability.isReachable && policy != .cacheOnly
            ? sync().asVoid().recover(on: .inline) { _ in Guarantee.value(()) }.asPromise()
            : .value(())
        return synced.then(on: .inline) {
            fallback.fetch(policy: policy, showingCopy: showingCopy) { api.fetchOrders() }
        }
        .then(on: .inline) { fetched -> Promise<Fetched<[Order]>> in
            guard fetched.source == .network else { return .value(fetched) }
            return cache.applyingLocalChanges(to: fetched.value).map(on: .inline) { orders in
                fetched.map { _ in orders }
            }
        }
        .failing(as: .fetchOrders)
    }

    /// One order: as changed here while a change of it waits, else from the API, or from the
    /// database when the API cannot be reached, is failing or asks to come back later
    /// (`FailureClass.showsSavedCopy`, as for the list).
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    public func fetchOrder(id: String) -> Promise<Order> {
        let api = api
        let cache = cache
        return queued(id) {
            cache.fetchOrder(id: id)
        } orElse: {
            api.fetchOrder(id: id).recover(on: .inline) { error -> Promise<Order> in
                guard let failure = Self.failure(error), failure.showsSavedCopy else { throw error }
                // Not kept here either: offline, "not found"; otherwise what the API said.
                return cache.fetchOrder(id: id).recover(on: .inline) { missing -> Promise<Order> in
                    guard failure.kind != .offline, case .notFound = (missing as? OrdersStoreError)?.reason
                    else { throw missing }
                    throw error
                }
            }
        }
    }

    /// Sends a new order to the API and keeps it in the offline copy; when the API cannot be
    /// reached, keeps it here with its POST waiting, under the same idempotency key, so that an
    /// attempt that timed out after the shop took it does not make a second order.
    ///
    /// - Parameter order: The order; its `id` and `total` are ignored.
    /// - Returns: A promise of the order as stored.
    public func createOrder(_ order: Order) -> Promise<Order> {
        let cache = cache
        let key = UUID().uuidString
        guard reachability.isReachable else { return cache.queueCreate(order, idempotencyKey: key) }
        return mirrored(api.createOrder(order, idempotencyKey: key)).recover(on: .inline) {
            error -> Promise<Order> in
            guard Self.failure(error)?.queuesWrite == true else { throw error }
            return cache.queueCreate(order, idempotencyKey: key, mayHaveArrived: true)
        }
    }

    /// Replaces an order in the API and in the database; when the API cannot be reached, or the
    /// order has changes waiting, here with its PUT waiting.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as stored.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        let api = api
        let cache = cache
        // One key for the attempt online and the change queued after it: an answer that never
        // came leaves the shop able to tell the repeat.
        let key = UUID().uuidString
        return queued(order.id ?? "") {
            cache.queueUpdate(order, idempotencyKey: key)
        } orElse: {
            mirrored(api.updateOrder(order, idempotencyKey: key)).recover(on: .inline) {
                error -> Promise<Order> in
                guard Self.failure(error)?.queuesWrite == true else { throw error }
                return cache.queueUpdate(order, idempotencyKey: key, mayHaveArrived: true)
            }
        }
    }

    /// Deletes an order in the API and in the database; when the API cannot be reached, or the
    /// order has changes waiting, hides it here with its DELETE waiting.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order.
    public func deleteOrder(id: String) -> Promise<Order> {
        let api = api
        let cache = cache
        let key = UUID().uuidString
        return queued(id) {
            cache.queueDelete(id: id, idempotencyKey: key)
        } orElse: {
            cache.version(of: id).recover(on: .inline) { _ in Guarantee.value(nil) }.asPromise()
                .then(on: .inline) { version in api.deleteOrder(id: id, idempotencyKey: key, version: version)
                }
                .then(on: .inline) { deleted in
                    cache.deleteOrder(id: id).map(on: .inline) { _ in deleted }
                        .recover(on: .inline) { _ in Guarantee.value(deleted) }
                        .asPromise()
                }
                .recover(on: .inline) { error -> Promise<Order> in
                    guard Self.failure(error)?.queuesWrite == true else { throw error }
                    return cache.queueDelete(id: id, idempotencyKey: key, mayHaveArrived: true)
                }
        }
    }

    /// `local()` when the order has changes queued (they must go first), else `remote()`.
    private func queued<Value: Sendable>(
        _ id: String, _ local: @escaping @Sendable () -> Promise<Value>,
        orElse remote: @escaping @Sendable () -> Promise<Value>
    ) -> Promise<Value> {
        guard reachability.isReachable else { return local() }
        return cache.hasQueuedChanges(id: id).then(on: .inline) { $0 ? local() : remote() }
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

    /// What a failure of the API means (`FailureClass`), or `nil` for the store's own errors.
    private static func failure(_ error: any Error) -> FailureClass? {
        guard let error = error as? OrdersStoreError, case .storage(let reason) = error.reason else {
            return nil
        }
        return FailureClass(reason)
    }
}
