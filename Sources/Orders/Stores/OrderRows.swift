import Foundation
import OfflineKit
import Services

/// The rows of the `orders` and `order_items` tables: how an ``Order`` is written and read back.
///
/// Of the card, only the last four digits and the expiration month are written; an order read back
/// carries the card as `•••• 1234` and an empty CVV (see ``asStored(_:)``).
enum OrderRows {
    /// The columns of an order row, in the order `insert` binds them.
    private static let insertOrder = """
        INSERT INTO orders (id, date, email, first_name, last_name, phone,
            billing_street1, billing_street2, billing_city, billing_state, billing_zip,
            shipment_street1, shipment_street2, shipment_city, shipment_state, shipment_zip,
            card_last4, card_expiration, shipment_speed, total, origin, version, customer_id, attachments,
            saved_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Writes `order` and its items under its `id`, saved at `savedAt`.
    static func insert(_ order: Order, _ connection: Connection, origin: OfflineOrigin, savedAt: Date) throws
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
                SQLValue(order.shipmentMethod.speed.rawValue), .text("\(order.total)"),
                .text(origin.rawValue),
                order.version.map(SQLValue.text) ?? .null,
                order.customerID.map(SQLValue.text) ?? .null,
                order.attachments.isEmpty
                    ? .null : .text(String(decoding: try APIClient.encode(order.attachments), as: UTF8.self)),
                .real(savedAt.timeIntervalSince1970),
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

    /// Replaces the row with `order`'s id (if any) by `order`.
    static func replace(_ order: Order, _ connection: Connection, origin: OfflineOrigin, savedAt: Date) throws
    {
        try connection.execute("DELETE FROM orders WHERE id = ?", [.text(order.id ?? "")])
        try insert(order, connection, origin: origin, savedAt: savedAt)
    }

    /// Which orders a read wants; each has its statements written out, values bound. Orders
    /// deleted on this device and waiting to be deleted in the API are read by `row` only.
    enum Filter {
        case all
        case id(String)
        /// The order with this id, deleted here or not.
        case row(String)
        case device
        /// The API's copy as the last listing left it.
        case api

        /// Which rows of `orders` it picks, with `parameters` bound.
        private var condition: String {
            switch self {
            case .all: "deleted = 0"
            case .id: "id = ? AND deleted = 0"
            case .row: "id = ?"
            case .device, .api: "origin = ? AND deleted = 0"
            }
        }

        var orders: String {
            // sql-constant: `condition` is one of this type's constants; values are bound.
            "SELECT * FROM orders WHERE \(condition) ORDER BY date DESC, id"
        }

        var items: String {
            switch self {
            case .all:
                "SELECT order_id, name, quantity, unit_price FROM order_items ORDER BY order_id, position"
            case .id, .row:
                "SELECT order_id, name, quantity, unit_price FROM order_items WHERE order_id = ? ORDER BY position"
            case .device, .api:
                """
                SELECT order_id, name, quantity, unit_price FROM order_items
                WHERE order_id IN (SELECT id FROM orders WHERE origin = ?) ORDER BY order_id, position
                """
            }
        }

        /// How many orders `orders` gives, for a list; `nil` for one order.
        var count: String? {
            switch self {
            // sql-constant: `condition` is one of this type's constants; values are bound.
            case .all, .device, .api: "SELECT count(*) FROM orders WHERE \(condition)"
            case .id, .row: nil
            }
        }

        var parameters: [SQLValue] {
            switch self {
            case .all: []
            case .id(let id), .row(let id): [.text(id)]
            case .device: [.text(OfflineOrigin.device.rawValue)]
            case .api: [.text(OfflineOrigin.api.rawValue)]
            }
        }
    }

    /// The orders `filter` picks, newest first, with their items.
    static func orders(_ connection: Connection, _ filter: Filter) throws -> [Order] {
        // How many there are, so that neither the orders nor their items are built by doubling
        // (at 100,000 orders, two copies held at once as the array grows).
        var count = 0
        if let counting = filter.count,
            case .integer(let rows)? = try connection.scalar(counting, filter.parameters)
        {
            count = Int(rows)
        }
        let items = try itemsByOrder(connection, filter.items, filter.parameters, capacity: count)
        return try connection.query(filter.orders, filter.parameters, reservingCapacity: count) { row in
            try order(row, items: items)
        }
    }

    /// The items `sql` reads, by the identifier of their order, each order's in their positions;
    /// room for `capacity` orders reserved first.
    static func itemsByOrder(
        _ connection: Connection, _ sql: String, _ parameters: [SQLValue], capacity: Int = 0
    ) throws -> [IdentifierKey: [OrderItem]] {
        var items: [IdentifierKey: [OrderItem]] = [:]
        items.reserveCapacity(capacity)
        _ = try connection.query(sql, parameters) { row in
            items[IdentifierKey(try row.string("order_id")), default: []].append(
                OrderItem(
                    name: try row.string("name"), quantity: try row.int("quantity"),
                    unitPrice: try decimal(row, "unit_price")))
        }
        return items
    }

    /// The order in the current row of a `SELECT * FROM orders`, with its items from `items`.
    static func order(_ row: ColumnReader, items: [IdentifierKey: [OrderItem]]) throws -> Order {
        let id = try row.string("id")
        return Order(
            id: id, date: Date(timeIntervalSince1970: try row.double("date")),
            email: try row.string("email"),
            firstName: try row.string("first_name"), lastName: try row.string("last_name"),
            phone: try row.string("phone"),
            billingAddress: try address(row, billingColumns),
            shipmentAddress: try address(row, shipmentColumns),
            paymentMethod: PaymentMethod(
                creditCardNumber: masked(try row.string("card_last4")),
                expirationDate: Date(timeIntervalSince1970: try row.double("card_expiration")), cvv: ""),
            shipmentMethod: ShipmentMethod(
                speed: ShipmentMethod.ShippingSpeed(rawValue: try row.int("shipment_speed")) ?? .standard),
            items: items[IdentifierKey(id)] ?? [], total: try decimal(row, "total"),
            version: try row.optionalString("version"),
            // Schema 8's column: the upgrade to schema 5 reads orders before it exists.
            customerID: row["customer_id"] == nil ? nil : try row.optionalString("customer_id"),
            attachments: try attachments(row))
    }

    /// The attachments of the current row (schema 9's column: earlier upgrades read rows before it
    /// exists).
    private static func attachments(_ row: ColumnReader) throws -> [OfflineAttachment] {
        guard row["attachments"] != nil, let json = try row.optionalString("attachments") else { return [] }
        return try APIClient.decode([OfflineAttachment].self, from: Data(json.utf8))
    }

    /// The orders changed on this device. `'device'` is written out, not bound: SQLite takes the
    /// partial index `orders_changed_here` only for a condition it can see is the index's own.
    static let changedHere = "SELECT id FROM orders WHERE origin = 'device'"

    /// The identifiers of the orders changed on this device, deleted ones included.
    static func changedIDs(_ connection: Connection) throws -> Set<IdentifierKey> {
        Set(try connection.query(changedHere) { IdentifierKey(try $0.string("id")) })
    }

    /// Whether `orders` are the orders `stored` holds, in any order: a listing that would rewrite
    /// the API's copy as it is.
    static func isSame(_ orders: [Order], as stored: [Order]) -> Bool {
        guard orders.count == stored.count else { return false }
        let byID = Dictionary(
            stored.map { (IdentifierKey($0.id ?? ""), $0) }, uniquingKeysWith: { first, _ in first })
        return orders.allSatisfy { byID[IdentifierKey($0.id ?? "")] == $0 }
    }

    /// The identifier and version of every order of the API's copy.
    static func apiVersions(_ connection: Connection) throws -> [IdentifierKey: String] {
        let rows = try connection.query("SELECT id, version FROM orders WHERE origin = 'api'") {
            (IdentifierKey(try $0.string("id")), try $0.optionalString("version") ?? "")
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// The order as it reads back from the file: card reduced to its last four digits, no CVV.
    static func asStored(_ order: Order) -> Order {
        var stored = order
        stored.paymentMethod = PaymentMethod(
            creditCardNumber: order.paymentMethod.maskedCardNumber,
            expirationDate: order.paymentMethod.expirationDate, cvv: "")
        return stored
    }

    private static let billingColumns = [
        "billing_street1", "billing_street2", "billing_city", "billing_state", "billing_zip",
    ]
    private static let shipmentColumns = [
        "shipment_street1", "shipment_street2", "shipment_city", "shipment_state", "shipment_zip",
    ]

    private static func address(_ row: ColumnReader, _ columns: [String]) throws -> Address {
        Address(
            street1: try row.string(columns[0]), street2: try row.string(columns[1]),
            city: try row.string(columns[2]),
            state: try row.string(columns[3]), zip: try row.string(columns[4]))
    }

    private static func decimal(_ row: ColumnReader, _ column: String) throws -> Decimal {
        let text = try row.string(column)
        guard let value = Decimal.reading(storedText: text) else {
            throw ServiceRequestError.decodingFailed(type: "Decimal", reason: "\(column): \(text)")
        }
        return value
    }

    private static func masked(_ lastFour: String) -> String {
        PaymentMethod(creditCardNumber: lastFour).maskedCardNumber
    }
}
