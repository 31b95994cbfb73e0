import Foundation
import Services

/// One thing a query's results are ordered by: a field of the query's order, or what breaks its
/// ties. The last term of a query is unique per resource, so a cursor (the last resource's value
/// of each term) says exactly where the next result starts.
enum OfflineQueryTerm: Sendable, Hashable {
    /// A field of the resource's JSON, as pages order it (``OfflineOrder``).
    case field(OfflineOrder)
    /// The list's order: the API's, then those created here, in the order they were made.
    case listed
    /// The identifier, after the fields of the query's order, in the direction of the last.
    case id(descending: Bool)

    /// Whether the greatest value comes first.
    var descending: Bool {
        switch self {
        case .field(let order): order.descending
        case .listed: false
        case .id(let descending): descending
        }
    }
}

extension OfflineQuery {
    /// What the results are ordered by: the query's fields then the identifier, or the list's
    /// order.
    var terms: [OfflineQueryTerm] {
        guard let last = sort.last else { return [.listed] }
        return sort.map(OfflineQueryTerm.field) + [.id(descending: last.descending)]
    }
}

extension OfflineQueryTerm {
    /// Whether a resource whose value of this term is `value` comes after one whose value is
    /// `cursor`, strictly, in this term's direction; `nil` when the two are equal. Values compare
    /// as SQLite compares them: `NULL` first, then numbers, then text by its bytes.
    func after(_ value: SQLValue, _ cursor: SQLValue) -> Bool? {
        Self.compare(value, cursor).map { descending ? $0 < 0 : $0 > 0 }
    }

    /// `-1`, `1`, or `nil` when equal: SQLite's order of values of any type.
    static func compare(_ lhs: SQLValue, _ rhs: SQLValue) -> Int? {
        func rank(_ value: SQLValue) -> Int {
            switch value {
            case .null: 0
            case .integer, .real: 1
            case .text: 2
            case .blob: 3
            }
        }
        guard rank(lhs) == rank(rhs) else { return rank(lhs) < rank(rhs) ? -1 : 1 }
        switch (lhs, rhs) {
        case (.text(let left), .text(let right)):
            return left == right
                ? nil : Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8)) ? -1 : 1
        case (.blob(let left), .blob(let right)):
            return left == right ? nil : left.lexicographicallyPrecedes(right) ? -1 : 1
        case (.null, .null):
            return nil
        default:
            let (left, right) = (number(lhs), number(rhs))
            return left == right ? nil : left < right ? -1 : 1
        }
    }

    /// A number's value as a `Double`.
    private static func number(_ value: SQLValue) -> Double {
        switch value {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        default: 0
        }
    }
}
