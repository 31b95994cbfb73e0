import Foundation
public import OfflineKit
public import Promises
public import Services

/// The orders store an app uses: the API when it answers, the app's database when it cannot, and
/// nothing the user did offline lost.
///
/// The orders are an `OfflineCollection` on the database store's tables, and follow every rule of
/// the offline kit (see the OfflineKit article "Adding an editable offline screen"): listings lay
/// this device's changes over the API's answer, a change that cannot reach the API waits in the
/// outbox with the order, in one transaction, and reaches the shop exactly once at a ``sync()``.
public struct FallbackOrdersStore: OrdersStore {
    let api: OrdersAPI
    let cache: OrdersSQLiteStore
    /// The orders as any resource kept offline: every rule of the table above is the collection's.
    var orders: OfflineCollection<Order>
    /// The shop's customers, in the same database: an order naming one made here is sent after it.
    public internal(set) var customers: CustomersStore
    /// The files attached to orders (``attach(fileAt:to:contentType:)``), kept beside the database
    /// and uploaded before the orders that name them.
    public let attachments: OfflineAttachments
    private let reachability: any ConnectivityMonitor

    /// Makes the store.
    ///
    /// - Parameters:
    ///   - api: The shop's API.
    ///   - cache: The app's database store: the offline copy, and the changes that wait.
    ///   - reachability: Whether to try the network at all; by default always.
    public init(
        api: OrdersAPI, cache: OrdersSQLiteStore, reachability: any ConnectivityMonitor = .assumeReachable
    ) {
        self.api = api
        self.cache = cache
        self.reachability = reachability
        let database = cache.storage.tables.database
        attachments = OfflineAttachments(database: database, client: api.client)
        // The shop's change feed, where it has one (`Sync-Token`): refreshes bring only what changed.
        orders =
            OfflineCollection(
                storage: cache.storage, client: api.client, reachability: reachability, makeID: cache.makeID
            ).followingChanges().namingCustomers.referencing(.attachments(\.attachments, to: attachments))
        customers = CustomersStore(
            database: database, client: api.client, reachability: reachability,
            makeID: cache.makeID)
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
        let (api, orders) = (api, orders)
        return orders.list(
            policy: policy, sendingFirst: true, showingCopy: { showingCopy($0.map(\.values)) },
            fetchingConditionally: { api.getOrders(ifChangedSince: $0) }
        )
        .map(on: .inline) { $0.map(\.values) }
        .failing(as: .fetchOrders, id: "")
    }

    /// One order: as changed here while a change of it waits, else from the API, or from the
    /// database when the API cannot be reached, is failing or asks to come back later
    /// (`FailureClass.showsSavedCopy`, as for the list).
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    public func fetchOrder(id: String) -> Promise<Order> {
        let api = api
        return orders.fetch(id: id, fetchingByID: { api.getOrder(id: $0) }).failing(as: .fetchOrder, id: id)
    }

    /// Sends a new order to the API and keeps it in the offline copy; when the API cannot be
    /// reached, keeps it here with its POST waiting, under the same idempotency key, so that an
    /// attempt that timed out after the shop took it does not make a second order.
    ///
    /// - Parameter order: The order; its `id` and `total` are ignored.
    /// - Returns: A promise of the order as stored.
    public func createOrder(_ order: Order) -> Promise<Order> {
        let (api, orders) = (api, orders)
        return firstly {
            try order.validateForStore(.createOrder)
            return orders.create(Self.kept(order)) { key in api.sendCreate(order, idempotencyKey: key) }
        }
        .failing(as: .createOrder, id: "")
    }

    /// Replaces an order in the API and in the database; when the API cannot be reached, or the
    /// order has changes waiting, here with its PUT waiting.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as stored.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        let (api, orders) = (api, orders)
        return firstly {
            try order.validateForStore(.updateOrder)
            return orders.update(Self.kept(order)) { key in api.sendUpdate(order, idempotencyKey: key) }
        }
        .failing(as: .updateOrder, id: order.id ?? "")
    }

    /// Deletes an order in the API and in the database; when the API cannot be reached, or the
    /// order has changes waiting, hides it here with its DELETE waiting.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order.
    public func deleteOrder(id: String) -> Promise<Order> {
        let api = api
        return orders.delete(id: id) { key, version in
            api.sendDelete(id: id, idempotencyKey: key, version: version).map(on: .inline) { Optional($0) }
        }
        .map(on: .inline) { deleted in
            guard let deleted else { throw ServiceRequestError.noData }
            return deleted
        }
        .failing(as: .deleteOrder, id: id)
    }

    /// The order as this device keeps it and queues it: the total computed, and the card as
    /// stored here, masked: card data is never written to the device, so a change made offline
    /// never carries it (a real shop takes payment through a processor's token).
    static func kept(_ order: Order) -> Order {
        var kept = OrderRows.asStored(order)
        kept.total = order.computedTotal
        return kept
    }
}

extension Promise {
    /// Rejects with an ``OrdersStoreError`` of `operation`, as ``OrdersAPI`` classifies the
    /// failure: the kit's and the API's errors are classified there, once.
    func failing(as operation: OrdersStoreError.Operation, id: String) -> Promise<Value> {
        recover(on: .inline, policy: .allErrors) { error -> Promise<Value> in
            throw OrdersAPI.storeError(error, operation, id: id)
        }
    }
}
