public import Foundation
import Services

/// A value a query compares a field with, of the type the field holds in the resource's JSON:
/// numbers compare as numbers (`9 < 10`), dates in time order, booleans as booleans, text by its
/// bytes; a value of one type never equals one of another (the number `1` is not the text `"1"`).
///
/// Literals make the common ones: `"p1"` is text, `3` and `2.5` numbers, `true` a boolean.
public enum OfflineValue: Sendable, Hashable {
    /// Text, compared by its UTF-8 bytes.
    case text(String)
    /// A number, integer or not.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// A date, compared in time order with the dates the resource's JSON holds (ISO 8601, as the
    /// API client writes them).
    case date(Date)

    /// The value as the copy's rows are compared in SQL: text through the same sort key as a
    /// stored field (a date without its `Z`), numbers as integers when whole, booleans as `1` and
    /// `0` (what SQLite's `json_extract` gives for `true` and `false`).
    var sqlValue: SQLValue {
        switch self {
        case .text(let text):
            return .text(OfflineOrder.sortKey(of: text))
        case .number(let number):
            return Int64(exactly: number).map(SQLValue.integer) ?? .real(number)
        case .bool(let bool):
            return .integer(bool ? 1 : 0)
        case .date(let date):
            let encoded = (try? APIClient.encode(date)).flatMap {
                try? JSONDecoder().decode(String.self, from: $0)
            }
            return .text(OfflineOrder.sortKey(of: encoded ?? ""))
        }
    }
}

extension OfflineValue: ExpressibleByStringLiteral {
    /// Text.
    ///
    /// - Parameter value: The text.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

extension OfflineValue: ExpressibleByIntegerLiteral {
    /// A number.
    ///
    /// - Parameter value: The number.
    public init(integerLiteral value: Int) {
        self = .number(Double(value))
    }
}

extension OfflineValue: ExpressibleByFloatLiteral {
    /// A number.
    ///
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) {
        self = .number(value)
    }
}

extension OfflineValue: ExpressibleByBooleanLiteral {
    /// A boolean.
    ///
    /// - Parameter value: The boolean.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}
