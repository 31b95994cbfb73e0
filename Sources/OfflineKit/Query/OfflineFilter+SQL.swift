import Services

/// A filter written as an SQL condition, for a storage that keeps each field as an expression of
/// its row (the JSON storage: `json_extract` of the field, as it sorts). The memory evaluation
/// (`OfflineFilter+Evaluation.swift`) follows the same rules.
extension OfflineFilter {
    /// The condition and its arguments, in order.
    ///
    /// - Parameter expression: The SQL expression of a field's value, as it sorts; the field's name
    ///   was checked to be letters, digits and `_`.
    /// - Returns: The condition and its arguments.
    func sql(_ expression: (String) -> String) -> (condition: String, arguments: [SQLValue]) {
        switch self {
        case .equals(let field, let value):
            return ("\(expression(field)) = ?", [value.sqlValue])
        case .isIn(let field, let values):
            // None: `IN ()`, which SQLite takes and which keeps nothing.
            let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
            return ("\(expression(field)) IN (\(marks))", values.map(\.sqlValue))
        case .lessThan(let field, let value):
            return Self.range(expression(field), "<", value)
        case .atMost(let field, let value):
            return Self.range(expression(field), "<=", value)
        case .greaterThan(let field, let value):
            return Self.range(expression(field), ">", value)
        case .atLeast(let field, let value):
            return Self.range(expression(field), ">=", value)
        case .hasPrefix(let field, let prefix):
            // Text from the prefix up to (not including) the prefix followed by the greatest
            // scalar: a range, so an index on the field serves it; numbers are below all text.
            let key = expression(field)
            return ("(\(key) >= ? AND \(key) < ?)", [.text(prefix), .text(prefix + "\u{10FFFF}")])
        case .isNull(let field):
            return ("\(expression(field)) IS NULL", [])
        case .all(let filters):
            return Self.joined(filters.map { $0.sql(expression) }, "AND", empty: "1")
        case .any(let filters):
            return Self.joined(filters.map { $0.sql(expression) }, "OR", empty: "0")
        }
    }

    /// A range on one type: SQLite orders every number before every text, so without the second
    /// condition `> 5` would keep every text and `< "m"` every number. `''` is the least text.
    private static func range(_ key: String, _ comparison: String, _ value: OfflineValue)
        -> (condition: String, arguments: [SQLValue])
    {
        let type = value.sqlValue.isText ? "\(key) >= ''" : "\(key) < ''"
        return ("(\(key) \(comparison) ? AND \(type))", [value.sqlValue])
    }

    private static func joined(
        _ parts: [(condition: String, arguments: [SQLValue])], _ junction: String, empty: String
    ) -> (condition: String, arguments: [SQLValue]) {
        guard !parts.isEmpty else { return (empty, []) }
        return (
            "(" + parts.map(\.condition).joined(separator: " \(junction) ") + ")", parts.flatMap(\.arguments)
        )
    }
}

extension SQLValue {
    /// Whether the value is text.
    fileprivate var isText: Bool {
        if case .text = self { return true }
        return false
    }
}
