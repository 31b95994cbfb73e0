import Foundation
import OfflineKit
import Services

/// The `orders` and `order_items` tables as the storage of the orders' `OfflineCollection`: the
/// offline copy in columns (the card reduced to its last four digits, see ``OrderRows``), newest
/// first, with the changes that wait in the same file. The one storage of orders: the device-only
/// ``OrdersSQLiteStore`` and the ``FallbackOrdersStore``'s collection both keep their orders here.
struct OrdersOfflineStorage: OfflineStorage {
    var tables: FeatureDatabase
    let outbox: Outbox
    /// Dates each order saved (`saved_at`), for a `StorageBudget`: the shop's saved longest ago
    /// go first.
    let now: @Sendable () -> Date

    /// The storage on `database`, its tables brought up to date (``OrdersSchema``) before the
    /// first read or write.
    init(database: Database, retry: RetryPolicy, now: @escaping @Sendable () -> Date) {
        let outbox = Outbox(database: database, feature: "orders", retry: retry, now: now)
        self.outbox = outbox
        self.now = now
        tables = FeatureDatabase(
            database, schema: "orders", migrations: OrdersSchema.migrations(queueingIn: outbox),
            waitingFor: [outbox.ready])
    }

    /// Kept under the name the store always used, so that a copy saved before stays dated.
    var copyStamp: String { "orders" }
    /// The tables the orders are read from.
    var observedTables: Set<String> { ["orders", "order_items"] }

    /// Dates the order's use (`saved_at`) now, never back: a `StorageBudget` keeps the orders read
    /// lately.
    func markRead(id: String, in connection: Connection) throws {
        try connection.execute(
            "UPDATE orders SET saved_at = MAX(saved_at, ?) WHERE id = ?",
            [.real(now().timeIntervalSince1970), .text(id)])
    }

    func resources(in connection: Connection) throws -> [Order] {
        try OrderRows.orders(connection, .all)
    }

    func resource(id: String, in connection: Connection) throws -> (value: Order, deleted: Bool)? {
        guard let order = try OrderRows.orders(connection, .row(id)).first else { return nil }
        let deleted = try connection.scalar("SELECT deleted FROM orders WHERE id = ?", [.text(id)])
        return (order, deleted != .integer(0))
    }

    func put(_ order: Order, from origin: OfflineOrigin, in connection: Connection) throws {
        try OrderRows.replace(order, connection, origin: origin, savedAt: now())
    }

    func markDeleted(id: String, in connection: Connection) throws {
        try connection.execute(
            "UPDATE orders SET deleted = 1, origin = ? WHERE id = ?",
            [.text(OfflineOrigin.device.rawValue), .text(id)])
    }

    func idsChangedHere(in connection: Connection) throws -> [String] {
        try OrderRows.changedIDs(connection).map(\.id)
    }

    func remove(id: String, from origin: OfflineOrigin?, in connection: Connection) throws {
        let origin: SQLValue = origin.map { .text($0.rawValue) } ?? .null
        try connection.execute(
            "DELETE FROM orders WHERE id = ? AND (?2 IS NULL OR origin = ?2)", [.text(id), origin])
    }

    /// Orders changed here keep their local version (one deleted here stays hidden). A listing
    /// equal to the copy rewrites nothing. When every order of the listing carries a version (as
    /// the shop gives one, moved on by each change), the copy is compared by identifier and
    /// version alone, so no order is read back, and only the orders whose version moved, came or
    /// went are written; an unversioned listing that differs replaces the copy whole.
    func replaceAPICopy(with fresh: [Order], in connection: Connection) throws {
        var kept = try OrderRows.changedIDs(connection)
        var copy: [Order] = []
        copy.reserveCapacity(fresh.count)
        for order in fresh {
            var stored = OrderRows.asStored(order)
            stored.id = order.id ?? UUID().uuidString
            guard kept.insert(IdentifierKey(stored.id ?? "")).inserted else { continue }
            copy.append(stored)
        }
        guard copy.allSatisfy({ $0.version != nil }) else {
            guard try !OrderRows.isSame(copy, as: OrderRows.orders(connection, .api)) else { return }
            try connection.execute("DELETE FROM orders WHERE origin = ?", [.text(OfflineOrigin.api.rawValue)])
            let savedAt = now()
            for order in copy {
                try OrderRows.insert(order, connection, origin: .api, savedAt: savedAt)
            }
            return
        }
        var gone = try OrderRows.apiVersions(connection)
        let savedAt = now()
        for order in copy {
            let id = IdentifierKey(order.id ?? "")
            if gone.removeValue(forKey: id) != order.version {
                try OrderRows.replace(order, connection, origin: .api, savedAt: savedAt)
            }
        }
        for id in gone.keys {
            try connection.execute(
                "DELETE FROM orders WHERE id = ? AND origin = ?",
                [.text(id.id), .text(OfflineOrigin.api.rawValue)])
        }
    }
}

extension OrdersOfflineStorage: BudgetedStorage {
    var collection: String { outbox.feature }

    /// Each order with what its columns and items take as stored.
    func budgetedRows(in connection: Connection) throws -> [BudgetedRow] {
        try connection.query(
            """
            SELECT id, origin, saved_at,
                length(id) + length(email) + length(first_name) + length(last_name) + length(phone)
                + length(billing_street1) + length(billing_street2) + length(billing_city)
                + length(billing_state) + length(billing_zip) + length(shipment_street1)
                + length(shipment_street2) + length(shipment_city) + length(shipment_state)
                + length(shipment_zip) + length(card_last4) + length(total) + 24
                + COALESCE(length(version), 0) + COALESCE(length(customer_id), 0)
                + COALESCE(length(attachments), 0)
                + (SELECT COALESCE(SUM(length(name) + length(unit_price) + 16), 0)
                    FROM order_items WHERE order_id = orders.id) AS size
            FROM orders
            """
        ) { row in
            BudgetedRow(
                id: try row.string("id"), bytes: try row.int("size"), savedAt: try row.double("saved_at"),
                changedHere: try row.string("origin") != OfflineOrigin.api.rawValue)
        }
    }

    /// Removes the shop's orders `ids`, their items with them.
    func evict(_ ids: [String], in connection: Connection) throws {
        try connection.execute(
            "DELETE FROM orders WHERE origin = ? AND id IN (SELECT value FROM json_each(?))",
            [
                .text(OfflineOrigin.api.rawValue),
                .text(String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)),
            ])
    }
}
