public import Foundation
public import OfflineKit
public import Promises
public import Services

/// Orders kept in the app's SQLite `Database`, in place of CleanStore's Core Data store.
///
/// Identifiers are generated on create and totals computed from the items; neither is taken from
/// the input. Of the card, only the last four digits and the expiration month are kept, which is
/// what a shop needs to show which card paid; the full number and the CVV are never written (card
/// data that must be kept belongs with a payment processor). Orders read back carry the card as
/// `•••• 1234` and an empty CVV.
///
/// Its tables are those of every store of orders on the database: the ``FallbackOrdersStore``
/// keeps the offline copy of the API's orders in them, with the changes that wait in ``outbox``.
/// One role, whichever store writes: ``createOrder(_:)``, ``updateOrder(_:)`` and
/// ``deleteOrder(id:)`` are the fallback store's writes made offline, each kept here with its
/// change queued, so a fallback store on the same database sends them at its next sync. (An app
/// with no API never syncs, and its changes stay queued beside the orders.)
/// ``save(_:at:)`` fills the copy as a listing would (a seed, a test) and ``load()`` reads it back.
public struct OrdersSQLiteStore: OrdersStore, OfflineCache {
    /// The changes made on this device that wait for the API, in the same file.
    public var outbox: Outbox { storage.outbox }
    /// The tables, as every store of orders on this database keeps them.
    let storage: OrdersOfflineStorage
    let makeID: @Sendable () -> String
    /// The orders as the offline kit keeps them, never reaching an API: every write is queued.
    let offline: OfflineCollection<Order>

    /// Makes the store and brings its tables up to date.
    ///
    /// - Parameters:
    ///   - database: The app's database.
    ///   - makeID: Makes the identifier of each new order; a UUID by default.
    ///   - retry: When a change the API failed is sent again, and when it is stuck (see
    ///     `Outbox`); `Outbox.standardRetry` by default.
    ///   - now: The clock of the outbox: when changes were made, how long failed ones wait.
    public init(
        database: Database, makeID: @escaping @Sendable () -> String = { UUID().uuidString },
        retry: RetryPolicy = Outbox.standardRetry, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.makeID = makeID
        var storage = OrdersOfflineStorage(database: database, retry: retry, now: now)
        // The client is never asked: its address only makes the collection (the queued changes'
        // paths are relative, sent with the fallback store's client).
        offline =
            OfflineCollection(
                storage: storage, client: APIClient(baseURL: URL(fileURLWithPath: "/")),
                reachability: NeverReachable(),
                makeID: makeID, now: now
            ).namingCustomers
        // Every read of the tables waits for the collection's model check, as the collection's
        // own do: a file a newer app wrote is refused here too, never listed.
        storage.tables.gate = offline.modelGate
        self.storage = storage
    }

    /// All orders, newest first.
    ///
    /// - Returns: A promise of the orders.
    public func fetchOrders() -> Promise<[Order]> {
        read { try OrderRows.orders($0, .all) }.failing(as: .fetchOrders)
    }

    /// One order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    public func fetchOrder(id: String) -> Promise<Order> {
        read { connection in
            guard let order = try OrderRows.orders(connection, .id(id)).first else {
                throw OrdersStoreError(.fetchOrder, .notFound(id: id))
            }
            return order
        }
        .failing(as: .fetchOrder)
    }

    /// Stores a new order under a new identifier, with its total computed.
    ///
    /// - Parameter order: The order; its `id` and `total` are ignored.
    /// - Returns: A promise of the order as stored.
    public func createOrder(_ order: Order) -> Promise<Order> {
        let offline = offline
        return firstly {
            try order.validateForStore(.createOrder)
            return offline.create(FallbackOrdersStore.kept(order))
        }
        .failing(as: .createOrder, id: "")
    }

    /// Replaces an order, recomputing its total.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as stored, or rejected with `notFound`.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        let offline = offline
        return firstly {
            try order.validateForStore(.updateOrder)
            return offline.update(FallbackOrdersStore.kept(order))
        }
        .failing(as: .updateOrder, id: order.id ?? "")
    }

    /// Deletes an order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order, or rejected with `notFound`.
    public func deleteOrder(id: String) -> Promise<Order> {
        offline.delete(id: id) { _, _ in Promise(error: ServiceRequestError.noNetwork) }
            .map(on: .inline) { deleted in
                guard let deleted else { throw ServiceRequestError.noData }
                return deleted
            }
            .failing(as: .deleteOrder, id: id)
    }

    /// Replaces the offline copy with `value`, as fetched from the API, in one transaction. Orders
    /// changed on this device keep their local version until the API confirmed the change: an
    /// order deleted here stays hidden, one updated here keeps its new values. A listing equal to
    /// the copy rewrites nothing: only the time it was confirmed is written.
    ///
    /// - Parameters:
    ///   - value: The orders, with the API's identifiers and totals.
    ///   - date: When they were fetched.
    /// - Returns: A promise fulfilled once they are stored.
    public func save(_ value: [Order], at date: Date) -> Promise<Void> {
        let storage = storage
        return write { try storage.saveCopy(value, at: date, in: $0) }
    }

    /// The orders created or changed on this device and not (yet) confirmed by the API, newest
    /// first.
    ///
    /// - Returns: A promise of those orders.
    public func deviceOrders() -> Promise<[Order]> {
        read { try OrderRows.orders($0, .device) }.failing(as: .fetchOrders)
    }

    /// The orders saved by ``save(_:at:)`` and when, or `nil` if the listing was never cached.
    ///
    /// - Returns: A promise of the cached orders.
    public func load() -> Promise<Cached<[Order]>?> {
        let storage = storage
        return read { try storage.loadCopy(in: $0) }
    }

    /// The date ``load()`` gives its orders, without reading them: when the copy was last saved,
    /// or, never filled from the API, when the newest order was made here; `nil` when neither.
    /// For deciding whether to fill an empty copy, which `load()` would decide by reading every
    /// order.
    ///
    /// - Returns: A promise of the date.
    public func savedAt() -> Promise<Date?> {
        let storage = storage
        return read { try storage.copySavedAt(in: $0) }
    }

    // MARK: - SQL

    func read<Value: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Value) -> Promise<Value> {
        storage.tables.read(body)
    }

    func write<Value: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Value) -> Promise<Value> {
        storage.tables.write(body)
    }
}

/// The network as an `OrdersSQLiteStore` sees it: never there, so every write is queued.
private struct NeverReachable: ConnectivityMonitor {
    var isReachable: Bool { false }
}
