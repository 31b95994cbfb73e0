import Foundation
import Services

/// Queries of the JSON rows in SQL: each field is `json_extract` of the row's JSON as it sorts
/// (the expression of the pages' indexes, so a declared index serves filters and orders alike).
extension JSONOfflineStorage {
    /// The terms' columns: a field, or the list's order (its position, then the row's age), or the
    /// identifier.
    static func columns(_ term: OfflineQueryTerm) -> [(expression: String, descending: Bool)] {
        switch term {
        case .field(let order): [(keyExpression(order), order.descending)]
        case .listed: [("position", false), ("rowid", false)]
        case .id(let descending): [("id", descending)]
        }
    }

    /// The field's value as it sorts, in SQL.
    static func fieldExpression(_ field: String) -> String {
        keyExpression(.ascending(field))
    }

    func query(_ query: OfflineQuery, after cursor: [SQLValue]?, in connection: Connection) throws
        -> [(value: Resource, keys: [SQLValue])]
    {
        let (sql, arguments) = Self.select(query, after: cursor)
        let count = query.terms.flatMap(Self.columns).count
        return try connection.query(sql, [.text(collection)] + arguments) { row in
            (value: try stored(row), keys: (0..<count).map { row["key\($0)"] ?? .null })
        }
    }

    func count(_ filter: OfflineFilter?, in connection: Connection) throws -> Int {
        let (sql, arguments) = Self.counting(filter)
        guard case .integer(let count)? = try connection.scalar(sql, [.text(collection)] + arguments) else {
            return 0
        }
        return Int(count)
    }

    /// The query's SQL after `cursor`; its first argument, the collection, is left to the caller.
    static func select(_ query: OfflineQuery, after cursor: [SQLValue]?) -> (
        sql: String, arguments: [SQLValue]
    ) {
        let columns = query.terms.flatMap(columns)
        var conditions = ["collection = ?", "deleted = 0"]
        var arguments: [SQLValue] = []
        if let filter = query.filter?.sql(fieldExpression) {
            conditions.append(filter.condition)
            arguments += filter.arguments
        }
        if let cursor, cursor.count == columns.count {
            let after = after(columns, cursor)
            conditions.append(after.condition)
            arguments += after.arguments
        }
        let keys = columns.enumerated().map { "\($1.expression) AS key\($0)" }.joined(separator: ", ")
        let order = columns.map { "\($0.expression) \($0.descending ? "DESC" : "ASC")" }.joined(
            separator: ", ")
        var sql =
            // sql-constant: the expressions are made of field names checked to be letters, digits and _.
            "SELECT json, \(keys) FROM offline_resources WHERE "
            + conditions.joined(separator: " AND ") + " ORDER BY " + order
        if let limit = query.limit {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(max(0, limit))))
        }
        return (sql, arguments)
    }

    /// The count's SQL; its first argument, the collection, is left to the caller.
    static func counting(_ filter: OfflineFilter?) -> (sql: String, arguments: [SQLValue]) {
        let condition = filter?.sql(fieldExpression)
        return (
            // sql-constant: the condition is made of field names checked to be letters, digits and _.
            "SELECT count(*) FROM offline_resources WHERE collection = ? AND deleted = 0 AND "
                + (condition?.condition ?? "1"),
            condition?.arguments ?? []
        )
    }

    func hasField(_ field: String, in connection: Connection) throws -> Bool {
        try connection.scalar(
            // sql-constant: the field's name was checked to be letters, digits and _.
            "SELECT 1 FROM offline_resources WHERE collection = ? AND deleted = 0 AND json_extract(json, '$.\(field)') IS NOT NULL LIMIT 1",
            [.text(collection)]) != nil
    }

    /// The rows after the one whose columns' values are `cursor`: greater in the first column, or
    /// equal in it and greater in the next, and so on (each in its direction; `NULL` first when
    /// ascending, last when descending, as SQLite orders them).
    static func after(_ columns: [(expression: String, descending: Bool)], _ cursor: [SQLValue])
        -> (condition: String, arguments: [SQLValue])
    {
        var alternatives: [String] = []
        var arguments: [SQLValue] = []
        for (index, column) in columns.enumerated() {
            var parts: [String] = []
            for earlier in 0..<index {
                parts.append("\(columns[earlier].expression) IS ?")
                arguments.append(cursor[earlier])
            }
            let (key, value) = (column.expression, cursor[index])
            switch (column.descending, value) {
            case (false, .null): parts.append("\(key) IS NOT NULL")
            case (false, _):
                parts.append("\(key) > ?")
                arguments.append(value)
            case (true, .null): parts.append("0")
            case (true, _):
                parts.append("(\(key) < ? OR \(key) IS NULL)")
                arguments.append(value)
            }
            alternatives.append("(" + parts.joined(separator: " AND ") + ")")
        }
        return ("(" + alternatives.joined(separator: " OR ") + ")", arguments)
    }
}
