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
    /// Where one value stands against another in SQLite's order.
    enum Order: Sendable, Equatable {
        case before, after
    }

    /// Whether a resource whose value of this term is `value` comes after one whose value is
    /// `cursor`, strictly, in this term's direction; `nil` when the two are equal.
    func after(_ value: SQLValue, _ cursor: SQLValue) -> Bool? {
        Self.compare(value, cursor).map { $0 == (descending ? .before : .after) }
    }

    /// Where `lhs` stands against `rhs` as SQLite orders values of any type, `nil` when they are
    /// equal: `NULL` first, then numbers, then text by its bytes, then blobs by theirs.
    static func compare(_ lhs: SQLValue, _ rhs: SQLValue) -> Order? {
        func rank(_ value: SQLValue) -> Int {
            switch value {
            case .null: 0
            case .integer, .real: 1
            case .text: 2
            case .blob: 3
            }
        }
        switch (lhs, rhs) {
        case (.text(let left), .text(let right)):
            return order(Array(left.utf8), Array(right.utf8))
        case (.blob(let left), .blob(let right)):
            return order(Array(left), Array(right))
        default:
            // Two numbers, two `NULL`s, or values of two types.
            return rank(lhs) == rank(rhs) ? order(number(lhs), number(rhs)) : order(rank(lhs), rank(rhs))
        }
    }

    /// `a`'s place against `b`'s; `nil` when neither comes first.
    private static func order<Value: Comparable>(_ a: Value, _ b: Value) -> Order? {
        a < b ? .before : b < a ? .after : nil
    }

    /// The same for bytes, compared one by one.
    private static func order(_ a: [UInt8], _ b: [UInt8]) -> Order? {
        a.lexicographicallyPrecedes(b) ? .before : b.lexicographicallyPrecedes(a) ? .after : nil
    }

    /// A number's value as a `Double`; `0` for `NULL`.
    private static func number(_ value: SQLValue) -> Double {
        switch value {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        default: 0
        }
    }
}
