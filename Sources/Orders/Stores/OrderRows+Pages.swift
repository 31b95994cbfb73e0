import Foundation
import Services

/// A page of the order list, read by its keyset: the orders after a cursor's date and identifier,
/// found through the `orders_listed` index, so that every page costs the same however deep it is.
extension OrderRows {
    /// The orders of a page, in the list's order, before `LIMIT`. `?1` is the cursor's date,
    /// `?2` its identifier: an order comes after it when it is older, or as old with a greater
    /// identifier (the rule `OrdersPage.Cursor.precedes(_:)` states in Swift).
    private static let pageCondition = "deleted = 0 AND date <= ?1 AND (date < ?1 OR id > ?2)"

    static let pageOrders =
        // sql-constant: `pageCondition` is this type's constant; the cursor and limit are bound.
        "SELECT * FROM orders WHERE \(pageCondition) ORDER BY date DESC, id LIMIT ?3"

    private static let pageIDs =
        // sql-constant: `pageCondition` is this type's constant; the cursor and limit are bound.
        "SELECT id FROM orders WHERE \(pageCondition) ORDER BY date DESC, id LIMIT ?3"

    /// The items of the page's orders, found by their order's key.
    static let pageItems =
        "SELECT order_id, name, quantity, unit_price FROM order_items WHERE order_id IN ("
        + pageIDs + ") ORDER BY order_id, position"

    /// At most `limit` orders after `cursor` (from the newest when `nil`), with their items, and
    /// the cursor of the next page when there are more (the page reads one order more than it
    /// gives, so the last page says it is the last), and on the first page how many orders the
    /// list holds.
    ///
    /// Call it inside a read, with the page's other reads (status, stamp), for one snapshot.
    static func page(
        _ connection: Connection, after cursor: OrdersPage.Cursor?, limit: Int
    ) throws -> (orders: [Order], next: OrdersPage.Cursor?, count: Int?) {
        let limit = max(1, limit)
        let parameters: [SQLValue] = [
            .real(cursor?.date ?? .infinity), .text(cursor?.id ?? ""), SQLValue(limit + 1),
        ]
        // A page is small: its arrays grow as they are read, with nothing reserved.
        let items = try itemsByOrder(connection, pageItems, parameters)
        var dates: [Double] = []
        var orders = try connection.query(pageOrders, parameters) { row in
            dates.append(try row.double("date"))
            return try order(row, items: items)
        }
        // The first page counts the list, with the index the listing reads.
        var count: Int?
        if cursor == nil, let counting = Filter.all.count,
            case .integer(let rows)? = try connection.scalar(counting, Filter.all.parameters)
        {
            count = Int(rows)
        }
        guard orders.count > limit else { return (orders, nil, count) }
        orders.removeLast()
        return (orders, OrdersPage.Cursor(date: dates[limit - 1], id: orders[limit - 1].id ?? ""), count)
    }
}
