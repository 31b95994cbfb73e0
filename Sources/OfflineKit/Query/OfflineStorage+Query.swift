import Foundation
public import Services

/// Queries of a storage that reads its resources whole (a feature's own tables): filtered, sorted
/// and cut in memory, with the rules the JSON storage's SQL follows. A storage with its own
/// tables answers them with its own SQL instead, as ``JSONOfflineStorage`` does.
extension OfflineStorage {
    /// The resources `query` keeps, in its order, after the one whose terms' values are `cursor`,
    /// at most its limit, each with its terms' values (``OfflineQueryTerm``).
    ///
    /// - Parameters:
    ///   - query: The question, its filter's ids already followed.
    ///   - cursor: The last resource's values of the query's terms, or `nil` from the first.
    ///   - connection: The connection of the read's transaction.
    /// - Returns: The resources and their terms' values.
    /// - Throws: The storage's read error.
    public func query(_ query: OfflineQuery, after cursor: [SQLValue]?, in connection: Connection) throws
        -> [(value: Resource, keys: [SQLValue])]
    {
        let terms = query.terms
        var rows: [(value: Resource, keys: [SQLValue])] = []
        for (index, resource) in try resources(in: connection).enumerated() {
            let object = try OfflinePageCursor.fields(of: resource)
            guard try query.filter?.matches(object) ?? true else { continue }
            let keys = try terms.map { term -> SQLValue in
                switch term {
                case .field(let order): try OfflinePageCursor.key(of: order.field, in: object)
                case .listed: .integer(Int64(index))
                case .id: .text(resource.id ?? "")
                }
            }
            rows.append((resource, keys))
        }
        rows.sort { Self.comesBefore($0.keys, $1.keys, terms) }
        if let cursor { rows.removeAll { !Self.comesBefore(cursor, $0.keys, terms) } }
        return query.limit.map { Array(rows.prefix(max(0, $0))) } ?? rows
    }

    /// How many resources `filter` keeps.
    ///
    /// - Parameters:
    ///   - filter: Which resources, their ids already followed; all when `nil`.
    ///   - connection: The connection of the read's transaction.
    /// - Returns: The count.
    /// - Throws: The storage's read error.
    public func count(_ filter: OfflineFilter?, in connection: Connection) throws -> Int {
        try query(OfflineQuery(where: filter), after: nil, in: connection).count
    }

    /// Whether any resource holds a value (not `null`) in `field`.
    ///
    /// - Parameters:
    ///   - field: The field's name in the resource's JSON.
    ///   - connection: The connection of the read's transaction.
    /// - Returns: Whether one does.
    /// - Throws: The storage's read error.
    public func hasField(_ field: String, in connection: Connection) throws -> Bool {
        try resources(in: connection).contains {
            try OfflinePageCursor.key(of: field, in: OfflinePageCursor.fields(of: $0)) != .null
        }
    }

    /// Nothing to prepare: queries are answered in memory.
    ///
    /// - Parameters:
    ///   - fields: Not used.
    ///   - connection: Not used.
    /// - Throws: Never.
    public func prepareQueries(on fields: [String], in connection: Connection) throws {}

    /// Whether a resource whose terms' values are `lhs` comes before one whose values are `rhs`.
    static func comesBefore(_ lhs: [SQLValue], _ rhs: [SQLValue], _ terms: [OfflineQueryTerm]) -> Bool {
        for (term, (left, right)) in zip(terms, zip(lhs, rhs)) {
            if let after = term.after(left, right) { return !after }
        }
        return false
    }
}
