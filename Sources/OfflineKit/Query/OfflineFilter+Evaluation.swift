import Foundation
import Services

/// A filter applied in memory, by a storage that reads its resources whole: the rules the JSON
/// storage's SQL follows (``JSONOfflineStorage``), value for value.
extension OfflineFilter {
    /// Whether the resource whose JSON fields are `object` is kept.
    ///
    /// - Parameter object: The resource's top-level JSON fields.
    /// - Returns: Whether it matches.
    /// - Throws: When a field's value cannot be read.
    func matches(_ object: [String: Any]) throws -> Bool {
        func key(_ field: String) throws -> SQLValue {
            try OfflinePageCursor.key(of: field, in: object)
        }
        /// `value`'s place against `other`, only when both are of one type (numbers, or text).
        func compared(_ value: SQLValue, _ other: OfflineValue) -> OfflineQueryTerm.Order?? {
            let other = other.sqlValue
            guard let type = Self.rangeType(value), type == Self.rangeType(other) else { return .none }
            return .some(OfflineQueryTerm.compare(value, other))
        }
        switch self {
        case .equals(let field, let value):
            let stored = try key(field)
            return stored != .null && OfflineQueryTerm.compare(stored, value.sqlValue) == nil
        case .isIn(let field, let values):
            let stored = try key(field)
            return stored != .null && values.contains { OfflineQueryTerm.compare(stored, $0.sqlValue) == nil }
        case .lessThan(let field, let value):
            guard case .some(let comparison) = compared(try key(field), value) else { return false }
            return comparison == .before
        case .atMost(let field, let value):
            guard case .some(let comparison) = compared(try key(field), value) else { return false }
            return comparison != .after
        case .greaterThan(let field, let value):
            guard case .some(let comparison) = compared(try key(field), value) else { return false }
            return comparison == .after
        case .atLeast(let field, let value):
            guard case .some(let comparison) = compared(try key(field), value) else { return false }
            return comparison != .before
        case .hasPrefix(let field, let prefix):
            guard case .text(let text) = try key(field) else { return false }
            return text.utf8.starts(with: prefix.utf8)
        case .isNull(let field):
            return try key(field) == .null
        case .all(let filters):
            return try filters.allSatisfy { try $0.matches(object) }
        case .any(let filters):
            return try filters.contains { try $0.matches(object) }
        }
    }

    /// The type a range compares a value as: numbers (booleans among them) with numbers, text with
    /// text; `nil` for `NULL` and anything else, which no range keeps.
    static func rangeType(_ value: SQLValue) -> Int? {
        switch value {
        case .integer, .real: 1
        case .text: 2
        default: nil
        }
    }
}
