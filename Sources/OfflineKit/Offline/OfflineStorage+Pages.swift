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
        try key(of: order.field, in: try fields(of: resource))
    }

    /// The top-level fields of `resource`'s JSON, as the API client encodes it.
    static func fields<Resource: OfflineResource>(of resource: Resource) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: APIClient.encode(resource)) as? [String: Any] ?? [:]
    }

    /// Field `field` of `object` as it sorts: text by ``OfflineOrder/sortKey(of:)``, booleans as
    /// `1` and `0` (as SQLite's `json_extract` gives them), whole numbers as integers.
    static func key(of field: String, in object: [String: Any]) throws -> SQLValue {
        switch object[field] {
        case let text as String:
            return .text(OfflineOrder.sortKey(of: text))
        case let bool as Bool:
            return .integer(bool ? 1 : 0)
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
        if let comparison = OfflineQueryTerm.compare(first.0, second.0) { return comparison == .before }
        return Array(first.1.utf8).lexicographicallyPrecedes(Array(second.1.utf8))
    }
}
