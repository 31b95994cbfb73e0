import Foundation
import Services

/// Pages of the JSON rows, read through an index on the order's field, so a page deep in a long
/// collection costs what the first does.
extension JSONOfflineStorage {
    /// The rows without the field form one run (first ascending, last descending), ordered by
    /// identifier; those with it another, ordered by its value then identifier. Each run is read
    /// from the cursor with a range on the index (`value >= cursor` and then ties by identifier),
    /// never from the start.
    func page(_ order: OfflineOrder, after cursor: OfflinePageCursor?, limit: Int, in connection: Connection)
        throws -> [(value: Resource, key: SQLValue)]
    {
        var rows: [(value: Resource, key: SQLValue)] = []
        for nulls in order.descending ? [false, true] : [true, false] {
            let remaining = limit - rows.count
            guard remaining > 0,
                let (sql, arguments) = Self.query(order, nulls: nulls, after: cursor, limit: remaining)
            else { continue }
            rows += try connection.query(sql, [.text(collection)] + arguments) {
                (
                    value: try stored($0),
                    key: $0["sort_key"] ?? .null
                )
            }
        }
        return rows
    }

    /// The query of one run (the rows without the field, or those with it) after `cursor`; `nil`
    /// when the whole run comes before the cursor's. Its first argument, the collection, is left
    /// to the caller.
    static func query(_ order: OfflineOrder, nulls: Bool, after cursor: OfflinePageCursor?, limit: Int)
        -> (sql: String, arguments: [SQLValue])?
    {
        let key = keyExpression(order)
        let direction = order.descending ? "DESC" : "ASC"
        var conditions = [nulls ? "\(key) IS NULL" : "\(key) IS NOT NULL"]
        var arguments: [SQLValue] = []
        if let cursor {
            let cursorInNulls = cursor.key == .null
            if cursorInNulls != nulls && (nulls != order.descending) { return nil }
            if cursorInNulls == nulls && nulls {
                conditions.append(order.descending ? "id < ?" : "id > ?")
                arguments.append(.text(cursor.id))
            } else if cursorInNulls == nulls {
                let (bound, strict) = order.descending ? ("<=", "<") : (">=", ">")
                conditions = ["\(key) \(bound) ?", "(\(key) \(strict) ? OR id \(strict) ?)"]
                arguments += [cursor.key, cursor.key, .text(cursor.id)]
            }
        }
        let sort = nulls ? "id \(direction)" : "\(key) \(direction), id \(direction)"
        let select =
            // sql-constant: `key` is `json_extract` of a field name checked to be letters, digits and _.
            "SELECT json, \(key) AS sort_key FROM offline_resources WHERE collection = ? AND deleted = 0"
        let sql = select + " AND " + conditions.joined(separator: " AND ") + " ORDER BY " + sort + " LIMIT ?"
        return (sql, arguments + [.integer(Int64(limit))])
    }

    /// The index the pages in `order` read: one per field, shared by every collection (it leads
    /// with the collection's name).
    func preparePages(_ order: OfflineOrder, in connection: Connection) throws {
        let (name, key) = ("offline_resources_ordered_by_\(order.field)", Self.keyExpression(order))
        // sql-constant: the name is made of a field name checked to be letters, digits and _.
        try connection.execute("DROP INDEX IF EXISTS offline_resources_by_\(order.field)")
        try connection.execute(
            // sql-constant: the name and `key` are made of a field name checked to be letters, digits and _.
            "CREATE INDEX IF NOT EXISTS \(name) ON offline_resources (collection, \(key), id)")
    }

    /// The order's field in a row's JSON, as it sorts (``OfflineOrder/sortKey(_:)``), written as the
    /// index writes it (the planner matches the text); the field's name was checked to be letters,
    /// digits and `_`. (An index of an earlier version, on the field as it is, is dropped.)
    static func keyExpression(_ order: OfflineOrder) -> String {
        OfflineOrder.sortKey("json_extract(json, '$.\(order.field)')")
    }

    /// The index a query on `fields` reads, in that order: one field's is a page's index; several
    /// make one index that serves a filter on the first (or the first few) and an order on the
    /// next, as "the tasks of a project by due date" asks.
    func prepareQueries(on fields: [String], in connection: Connection) throws {
        guard let first = fields.first else { return }
        guard fields.count > 1 else { return try preparePages(.ascending(first), in: connection) }
        let keys = fields.map(Self.fieldExpression).joined(separator: ", ")
        try connection.execute(
            // sql-constant: the name and the keys are made of field names checked to be letters, digits and _.
            "CREATE INDEX IF NOT EXISTS offline_resources_ordered_by_\(fields.joined(separator: "_then_")) ON offline_resources (collection, \(keys), id)"
        )
    }
}
