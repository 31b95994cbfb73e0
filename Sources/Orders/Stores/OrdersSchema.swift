import OfflineKit
import Services

/// The `orders` schema: the tables every store of orders on a database shares (see
/// ``OrdersOfflineStorage``), and the one step that queued the orders an outbox-less version kept.
enum OrdersSchema {
    /// The steps, the last queueing into `outbox`. ``OrdersOfflineStorage`` applies them itself,
    /// through `FeatureDatabase`, when it is made; they are not for `Database(at:migrations:)`,
    /// which would make the tables a second time.
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
            },
            // The orders changed here, which every page and snapshot looks up, found without
            // reading the API's copy: a scan of 100,000 rows a page made paging 3x slower.
            Migration(
                version: 6,
                sql: "CREATE INDEX IF NOT EXISTS orders_changed_here ON orders (id) WHERE origin = 'device'"),
            // The list's order, date then identifier, of the orders not deleted: a page reads its
            // rows in order (by date alone, SQLite sorted each page's ties in a temporary tree)
            // and finds its identifiers, which its items are read by, in the index alone.
            Migration(
                version: 7,
                sql: """
                    CREATE INDEX IF NOT EXISTS orders_listed ON orders (date DESC, id) WHERE deleted = 0;
                    DROP INDEX IF EXISTS orders_by_date;
                    """),
            // The customer who placed each order (`Order.customerID`), as the shop or this device
            // names it.
            Migration(version: 8, sql: "ALTER TABLE orders ADD COLUMN customer_id TEXT"),
            // The files attached to each order (`Order.attachments`), as the JSON array the shop
            // names them by; `NULL` for none.
            Migration(version: 9, sql: "ALTER TABLE orders ADD COLUMN attachments TEXT"),
            // When each order's values were last saved here, in seconds since 1970: a
            // `StorageBudget` lets go of the shop's orders saved longest ago first.
            Migration(version: 10, sql: "ALTER TABLE orders ADD COLUMN saved_at REAL NOT NULL DEFAULT 0"),
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
}
