public import Foundation
public import Promises
public import Services

/// Orders kept in the app's SQLite ``Database``, in place of CleanStore's Core Data store.
///
/// Identifiers are generated on create and totals computed from the items; neither is taken from
/// the input. Of the card, only the last four digits and the expiration month are kept, which is
/// what a shop needs to show which card paid; the full number and the CVV are never written (card
/// data that must be kept belongs with a payment processor). Orders read back carry the card as
/// `•••• 1234` and an empty CVV.
///
/// It is also the offline copy of the API's orders (see ``FallbackOrdersStore``): ``save(_:at:)``
/// replaces that copy and leaves the orders created on this device alone; ``load()`` and the
/// fetches return both.
public struct OrdersSQLiteStore: OrdersStore, OfflineCache {
    /// The steps of the `orders` schema, applied when the store is first used.
    public static let migrations = [
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
    ]

    private let database: Database
    private let ready: Promise<Void>
    private let makeID: @Sendable () -> String

    /// Makes the store and brings its tables up to date.
    ///
    /// - Parameters:
    ///   - database: The app's database.
    ///   - makeID: Makes the identifier of each new order; a UUID by default.
    public init(database: Database, makeID: @escaping @Sendable () -> String = { UUID().uuidString }) {
        self.database = database
        self.makeID = makeID
        ready = database.migrate(schema: "orders", Self.migrations)
    }

    /// All orders, newest first.
    ///
    /// - Returns: A promise of the orders.
    public func fetchOrders() -> Promise<[Order]> {
        read { try Self.allOrders($0) }.failing(as: .fetchOrders)
    }

    /// One order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    public func fetchOrder(id: String) -> Promise<Order> {
        read { connection in
            guard let order = try Self.orders(connection, .id(id)).first else {
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
            try order.validateForStore(.createOrder)
            var created = order
            created.id = makeID()
            created.total = order.computedTotal
            try Self.insert(created, connection)
            return Self.asStored(created)
        }
        .failing(as: .createOrder)
    }

    /// Replaces an order, recomputing its total.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as stored, or rejected with `notFound`.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        write { connection in
            try order.validateForStore(.updateOrder)
            guard let id = order.id,
                try connection.execute("DELETE FROM orders WHERE id = ?", [.text(id)]) == 1
            else {
                throw OrdersStoreError(.updateOrder, .notFound(id: order.id ?? ""))
            }
            var updated = order
            updated.total = order.computedTotal
            try Self.insert(updated, connection)
            return Self.asStored(updated)
        }
        .failing(as: .updateOrder)
    }

    /// Deletes an order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order, or rejected with `notFound`.
    public func deleteOrder(id: String) -> Promise<Order> {
        write { connection in
            guard let order = try Self.orders(connection, .id(id)).first else {
                throw OrdersStoreError(.deleteOrder, .notFound(id: id))
            }
            try connection.execute("DELETE FROM orders WHERE id = ?", [.text(id)])
            return order
        }
        .failing(as: .deleteOrder)
    }

    /// Replaces every stored order with `value`, as fetched from the API, in one transaction.
    ///
    /// - Parameters:
    ///   - value: The orders, with the API's identifiers and totals.
    ///   - date: When they were fetched.
    /// - Returns: A promise fulfilled once they are stored.
    public func save(_ value: [Order], at date: Date) -> Promise<Void> {
        write { connection in
            try connection.execute("DELETE FROM orders WHERE origin = ?", [.text(Origin.api)])
            for order in value {
                var stored = order
                stored.id = order.id ?? UUID().uuidString
                try connection.execute("DELETE FROM orders WHERE id = ?", [.text(stored.id ?? "")])
                try Self.insert(stored, connection, origin: Origin.api)
            }
            try connection.setCacheStamp("orders", to: date)
        }
    }

    /// Puts one order the API accepted into the offline copy, replacing any row with its id.
    func keepAPICopy(of order: Order) -> Promise<Void> {
        write { connection in
            try connection.execute("DELETE FROM orders WHERE id = ?", [.text(order.id ?? "")])
            try Self.insert(order, connection, origin: Origin.api)
        }
    }

    /// The orders created on this device and not (yet) known to the API, newest first.
    ///
    /// - Returns: A promise of those orders.
    public func deviceOrders() -> Promise<[Order]> {
        read { try Self.orders($0, .device) }.failing(
            as: .fetchOrders)
    }

    /// The orders saved by ``save(_:at:)`` and when, or `nil` if the listing was never cached.
    ///
    /// - Returns: A promise of the cached orders.
    public func load() -> Promise<Cached<[Order]>?> {
        read { connection in
            guard let savedAt = try connection.cacheStamp("orders") else { return nil }
            return Cached(value: try Self.allOrders(connection), savedAt: savedAt)
        }
    }

    // MARK: - SQL

    private func read<Value: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Value) -> Promise<
        Value
    > {
        let database = database
        return ready.then(on: .inline) { database.read(body) }
    }

    private func write<Value: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Value) -> Promise<
        Value
    > {
        let database = database
        return ready.then(on: .inline) { database.write(body) }
    }

    /// The columns of an order row, in the order `insertOrder` binds and `selectOrders` reads them.
    private static let insertOrder = """
        INSERT INTO orders (id, date, email, first_name, last_name, phone,
            billing_street1, billing_street2, billing_city, billing_state, billing_zip,
            shipment_street1, shipment_street2, shipment_city, shipment_state, shipment_zip,
            card_last4, card_expiration, shipment_speed, total, origin)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Where a row came from.
    enum Origin {
        /// Created on this device.
        static let device = "device"
        /// The API's copy, replaced by each fresh listing.
        static let api = "api"
    }

    private static func insert(_ order: Order, _ connection: Connection, origin: String = Origin.device)
        throws
    {
        let id = order.id ?? ""
        let billing = order.billingAddress
        let shipment = order.shipmentAddress
        try connection.execute(
            insertOrder,
            [
                .text(id), .real(order.date.timeIntervalSince1970), .text(order.email),
                .text(order.firstName),
                .text(order.lastName), .text(order.phone),
                .text(billing.street1), .text(billing.street2), .text(billing.city), .text(billing.state),
                .text(billing.zip),
                .text(shipment.street1), .text(shipment.street2), .text(shipment.city), .text(shipment.state),
                .text(shipment.zip),
                .text(order.paymentMethod.lastFourDigits),
                .real(order.paymentMethod.expirationDate.timeIntervalSince1970),
                SQLValue(order.shipmentMethod.speed.rawValue), .text("\(order.total)"), .text(origin),
            ])
        for (position, item) in order.items.enumerated() {
            try connection.execute(
                "INSERT INTO order_items (order_id, position, name, quantity, unit_price) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(id), SQLValue(position), .text(item.name), SQLValue(item.quantity),
                    .text("\(item.unitPrice)"),
                ])
        }
    }

    private static func allOrders(_ connection: Connection) throws -> [Order] {
        try orders(connection, .all)
    }

    /// Which orders a read wants; each has its statements written out, values bound.
    private enum Filter {
        case all
        case id(String)
        case device

        var orders: String {
            switch self {
            case .all: "SELECT * FROM orders ORDER BY date DESC, id"
            case .id: "SELECT * FROM orders WHERE id = ? ORDER BY date DESC, id"
            case .device: "SELECT * FROM orders WHERE origin = ? ORDER BY date DESC, id"
            }
        }

        var items: String {
            switch self {
            case .all:
                "SELECT order_id, name, quantity, unit_price FROM order_items ORDER BY order_id, position"
            case .id:
                "SELECT order_id, name, quantity, unit_price FROM order_items WHERE order_id = ? ORDER BY position"
            case .device:
                """
                SELECT order_id, name, quantity, unit_price FROM order_items
                WHERE order_id IN (SELECT id FROM orders WHERE origin = ?) ORDER BY order_id, position
                """
            }
        }

        var parameters: [SQLValue] {
            switch self {
            case .all: []
            case .id(let id): [.text(id)]
            case .device: [.text(Origin.device)]
            }
        }
    }

    /// The orders `filter` picks, newest first, with their items.
    private static func orders(_ connection: Connection, _ filter: Filter) throws -> [Order] {
        var items: [String: [OrderItem]] = [:]
        _ = try connection.query(filter.items, filter.parameters) { row in
            items[try row.string("order_id"), default: []].append(
                OrderItem(
                    name: try row.string("name"), quantity: try row.int("quantity"),
                    unitPrice: try decimal(row, "unit_price")))
        }
        return try connection.query(filter.orders, filter.parameters) { row in
            let id = try row.string("id")
            return Order(
                id: id, date: Date(timeIntervalSince1970: try row.double("date")),
                email: try row.string("email"),
                firstName: try row.string("first_name"), lastName: try row.string("last_name"),
                phone: try row.string("phone"),
                billingAddress: try address(row, Self.billingColumns),
                shipmentAddress: try address(row, Self.shipmentColumns),
                paymentMethod: PaymentMethod(
                    creditCardNumber: masked(try row.string("card_last4")),
                    expirationDate: Date(timeIntervalSince1970: try row.double("card_expiration")), cvv: ""),
                shipmentMethod: ShipmentMethod(
                    speed: ShipmentMethod.ShippingSpeed(rawValue: try row.int("shipment_speed")) ?? .standard),
                items: items[id] ?? [], total: try decimal(row, "total"))
        }
    }

    private static let billingColumns = [
        "billing_street1", "billing_street2", "billing_city", "billing_state", "billing_zip",
    ]
    private static let shipmentColumns = [
        "shipment_street1", "shipment_street2", "shipment_city", "shipment_state", "shipment_zip",
    ]
    private static let posix = Locale(identifier: "en_US_POSIX")

    private static func address(_ row: ColumnReader, _ columns: [String]) throws -> Address {
        Address(
            street1: try row.string(columns[0]), street2: try row.string(columns[1]),
            city: try row.string(columns[2]),
            state: try row.string(columns[3]), zip: try row.string(columns[4]))
    }

    private static func decimal(_ row: ColumnReader, _ column: String) throws -> Decimal {
        let text = try row.string(column)
        guard let value = Decimal(string: text, locale: posix) else {
            throw ServiceRequestError.decodingFailed(type: "Decimal", reason: "\(column): \(text)")
        }
        return value
    }

    private static func masked(_ lastFour: String) -> String {
        lastFour.isEmpty ? "" : "•••• \(lastFour)"
    }

    /// The order as it reads back from the file: card reduced to its last four digits, no CVV.
    private static func asStored(_ order: Order) -> Order {
        var stored = order
        stored.paymentMethod = PaymentMethod(
            creditCardNumber: masked(order.paymentMethod.lastFourDigits),
            expirationDate: order.paymentMethod.expirationDate, cvv: "")
        return stored
    }
}
