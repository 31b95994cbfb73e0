public import Foundation
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
/// It is also the offline copy of the API's orders (see ``FallbackOrdersStore``): ``save(_:at:)``
/// replaces that copy and leaves the orders changed on this device alone, and the changes that
/// wait for the API are kept in its ``outbox`` with them; ``load()`` and the fetches return the
/// copy with those changes applied.
public struct OrdersSQLiteStore: OrdersStore, OfflineCache {
    /// The steps of the `orders` schema, the last queueing into `outbox`. The store applies them
    /// itself, through `Database/migrate(schema:_:)`, when it is made; they are not for
    /// `Database(at:migrations:)`, which would make the tables a second time.
    static func migrations(queueingIn outbox: Outbox) -> [Migration] {
        tableMigrations + [
            // Orders created offline by a version without the outbox were kept here only: their
            // creates are queued, once. Only rows the shop never versioned: a row changed here
            // whose change is missing (a damaged file) is not taken for a create, which would
            // make a second copy of an order the shop has.
            Migration(version: 5) { connection in
                for var order in try OrderRows.orders(connection, .device) where order.version == nil {
                    let id = order.id ?? ""
                    guard try outbox.entries(for: id, in: connection).isEmpty else { continue }
                    order.id = nil  // the shop names it
                    try outbox.record(.post, "orders", json: order, localID: id, in: connection)
                }
            }
        ]
    }

    /// The steps that make and alter the tables.
    private static let tableMigrations = [
        Migration(
            version: 1,
            sql: """
                CREATE TABLE orders (
                    id TEXT PRIMARY KEY,
                    date REAL NOT NULL,
                    email TEXT NOT NULL,
                    first_name TEXT NOT NULL,
                    last_name TEXT NOT NULL,
                    phone TEXT NOT NULL,
                    billing_street1 TEXT NOT NULL,
                    billing_street2 TEXT NOT NULL,
                    billing_city TEXT NOT NULL,
                    billing_state TEXT NOT NULL,
                    billing_zip TEXT NOT NULL,
                    shipment_street1 TEXT NOT NULL,
                    shipment_street2 TEXT NOT NULL,
                    shipment_city TEXT NOT NULL,
                    shipment_state TEXT NOT NULL,
                    shipment_zip TEXT NOT NULL,
                    card_last4 TEXT NOT NULL,
                    card_expiration REAL NOT NULL,
                    shipment_speed INTEGER NOT NULL,
                    total TEXT NOT NULL
                );
                CREATE TABLE order_items (
                    order_id TEXT NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    quantity INTEGER NOT NULL,
                    unit_price TEXT NOT NULL,
                    PRIMARY KEY (order_id, position)
                );
                CREATE INDEX orders_by_date ON orders (date DESC);
                """),
        // Orders created on this device are kept apart from the API's copy, which a fresh listing
        // replaces, so that they are not lost before the shop has them.
        Migration(version: 2, sql: "ALTER TABLE orders ADD COLUMN origin TEXT NOT NULL DEFAULT 'device'"),
        // An order deleted on this device stays as a marked row until the API deleted it too, so
        // that a fresh listing that still has it does not bring it back.
        Migration(version: 3, sql: "ALTER TABLE orders ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0"),
        // The shop's version of each order: what a change made here is based on (`If-Match`).
        Migration(version: 4, sql: "ALTER TABLE orders ADD COLUMN version TEXT"),
    ]

    /// The changes made on this device that wait for the API, in the same file.
    public let outbox: Outbox
    let tables: FeatureDatabase
    let makeID: @Sendable () -> String

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
        let outbox = Outbox(database: database, feature: "orders", retry: retry, now: now)
        self.outbox = outbox
        tables = FeatureDatabase(
            database, schema: "orders", migrations: Self.migrations(queueingIn: outbox),
            waitingFor: [outbox.ready])
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
        let makeID = makeID
        return write { connection in
            OrderRows.asStored(try Self.insertNew(order, id: makeID(), connection))
        }
        .failing(as: .createOrder)
    }

    /// Checks a new order, gives it `id` and its computed total, and writes it as made on this
    /// device.
    static func insertNew(_ order: Order, id: String, _ connection: Connection) throws -> Order {
        try order.validateForStore(.createOrder)
        var created = order
        created.id = id
        created.total = order.computedTotal
        try OrderRows.insert(created, connection, origin: .device)
        return created
    }

    /// Replaces an order, recomputing its total.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as stored, or rejected with `notFound`.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        write { connection in
            try order.validateForStore(.updateOrder)
            guard let id = order.id,
                try connection.execute("DELETE FROM orders WHERE id = ? AND deleted = 0", [.text(id)]) == 1
            else {
                throw OrdersStoreError(.updateOrder, .notFound(id: order.id ?? ""))
            }
            var updated = order
            updated.total = order.computedTotal
            try OrderRows.insert(updated, connection, origin: .device)
            return OrderRows.asStored(updated)
        }
        .failing(as: .updateOrder)
    }

    /// Deletes an order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order, or rejected with `notFound`.
    public func deleteOrder(id: String) -> Promise<Order> {
        write { connection in
            guard let order = try OrderRows.orders(connection, .id(id)).first else {
                throw OrdersStoreError(.deleteOrder, .notFound(id: id))
            }
            try connection.execute("DELETE FROM orders WHERE id = ?", [.text(id)])
            return order
        }
        .failing(as: .deleteOrder)
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
        let offline = offline
        return write { try offline.saveCopy(value, at: date, in: $0) }
    }

    /// The tables as the storage of the orders' `OfflineCollection`.
    var offline: OrdersOfflineStorage {
        OrdersOfflineStorage(tables: tables, outbox: outbox)
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
        let offline = offline
        return read { try offline.loadCopy(in: $0) }
    }

    /// The date ``load()`` gives its orders, without reading them: when the copy was last saved,
    /// or, never filled from the API, when the newest order was made here; `nil` when neither.
    /// For deciding whether to fill an empty copy, which `load()` would decide by reading every
    /// order.
    ///
    /// - Returns: A promise of the date.
    public func savedAt() -> Promise<Date?> {
        let offline = offline
        return read { try offline.copySavedAt(in: $0) }
    }

    // MARK: - SQL

    func read<Value: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Value) -> Promise<Value> {
        tables.read(body)
    }

    func write<Value: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Value) -> Promise<Value> {
        tables.write(body)
    }
}
