import Foundation
public import Services

extension OfflineStorage {
    /// Every resource shown, sorted in memory as SQLite would sort the order's field, then the
    /// part after `cursor`.
    public func page(
        _ order: OfflineOrder, after cursor: OfflinePageCursor?, limit: Int, in connection: Connection
    )
        throws -> [(value: Resource, key: SQLValue)]
    {
        let keyed = try resources(in: connection).map {
            (value: $0, key: try OfflinePageCursor.key(of: $0, order))
        }
        let sorted = keyed.sorted {
            OfflinePageCursor.precedes(($0.key, $0.value.id ?? ""), ($1.key, $1.value.id ?? ""), in: order)
        }
        let start =
            cursor.map { cursor in
                sorted.firstIndex {
                    OfflinePageCursor.precedes(
                        (cursor.key, cursor.id), ($0.key, $0.value.id ?? ""), in: order)
                } ?? sorted.endIndex
            } ?? 0
        return Array(sorted[start...].prefix(limit))
    }

    /// Nothing to prepare: pages are sorted in memory.
    public func preparePages(_ order: OfflineOrder, in connection: Connection) throws {}
}

extension OfflinePageCursor {
    /// The value of `order`'s field in `resource`'s JSON, as SQLite's `json_extract` gives it.
    static func key<Resource: OfflineResource>(of resource: Resource, _ order: OfflineOrder) throws
        -> SQLValue
    {
        let object = try JSONSerialization.jsonObject(with: APIClient.encode(resource)) as? [String: Any]
        switch object?[order.field] {
        case let text as String:
            return .text(OfflineOrder.sortKey(of: text))
        case let number as NSNumber:
            let value = number.doubleValue
            return value == value.rounded() && abs(value) < 9e15 ? .integer(Int64(value)) : .real(value)
        case nil, is NSNull:
            return .null
        case let other?:
            return .text(String(decoding: try JSONSerialization.data(withJSONObject: other), as: UTF8.self))
        }
    }

    /// Whether `lhs` comes before `rhs` in `order`: by the field's value as SQLite orders values
    /// (null, then numbers, then text by its bytes), then by identifier bytes; both reversed when
    /// descending.
    static func precedes(_ lhs: (SQLValue, String), _ rhs: (SQLValue, String), in order: OfflineOrder) -> Bool
    {
        let (first, second) = order.descending ? (rhs, lhs) : (lhs, rhs)
        if let ascending = Self.ascending(first.0, second.0) { return ascending }
        return Array(first.1.utf8).lexicographicallyPrecedes(Array(second.1.utf8))
    }

    /// Whether `lhs` sorts before `rhs` in SQLite; `nil` when they are equal.
    private static func ascending(_ lhs: SQLValue, _ rhs: SQLValue) -> Bool? {
        func rank(_ value: SQLValue) -> Int {
            switch value {
            case .null: 0
            case .integer, .real: 1
            case .text: 2
            case .blob: 3
            }
        }
        func number(_ value: SQLValue) -> Double {
            switch value {
            case .integer(let integer): Double(integer)
            case .real(let real): real
            default: 0
            }
        }
        guard rank(lhs) == rank(rhs) else { return rank(lhs) < rank(rhs) }
        switch (lhs, rhs) {
        case (.text(let left), .text(let right)):
            return left == right ? nil : Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
        case (.blob(let left), .blob(let right)):
            return left == right ? nil : left.lexicographicallyPrecedes(right)
        case (.null, .null):
            return nil
        default:
            return number(lhs) == number(rhs) ? nil : number(lhs) < number(rhs)
        }
    }
}
