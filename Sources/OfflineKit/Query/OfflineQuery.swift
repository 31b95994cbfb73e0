import Services

/// A question a screen asks of a collection's copy: which resources (``OfflineFilter``), in which
/// order (one or more ``OfflineOrder``s, ties broken by identifier), and how many at most. It reads
/// the copy with this device's changes applied, as ``OfflineCollection/list(policy:sendingFirst:showingCopy:)``
/// shows it: created ones in, deleted ones out.
///
/// ```swift
/// let query = OfflineQuery(
///     where: .equals("projectId", .text(project.id)) && .isNull("doneAt"),
///     sortedBy: [.ascending("due"), .descending("priority")], limit: 50)
/// tasks.query(query).done { result in view.show(result.values) }
/// ```
///
/// Without an order the resources come in the list's order (the API's, then those created here).
/// A query on a field the collection declared an index for (``OfflineCollection/indexed(by:)``)
/// reads through it; any other field works too, by reading the collection.
public struct OfflineQuery: Sendable, Hashable {
    /// Which resources it keeps; `nil` for all.
    public var filter: OfflineFilter?
    /// Their order, first field first; empty for the list's order.
    public var sort: [OfflineOrder]
    /// How many a result holds at most; `nil` for all. A result that stopped at it says where the
    /// next starts (``OfflineQueryResult/next``).
    public var limit: Int?

    /// Makes a query.
    ///
    /// - Parameters:
    ///   - filter: Which resources; all by default.
    ///   - sort: Their order; the list's by default.
    ///   - limit: How many at most; all by default.
    public init(where filter: OfflineFilter? = nil, sortedBy sort: [OfflineOrder] = [], limit: Int? = nil) {
        self.filter = filter
        self.sort = sort
        self.limit = limit
    }

    /// Where the next result of a query starts: just after the last resource of the one before.
    /// Opaque; a result gives it as ``OfflineQueryResult/next``.
    public struct Cursor: Sendable, Hashable {
        /// The query it continues.
        public let query: OfflineQuery
        /// The last resource's values of the query's terms (``OfflineQuery/terms``), in order.
        let keys: [SQLValue]
    }

    /// Every field the query names, in its filter and its order.
    var fields: [String] {
        (filter?.fields ?? []) + sort.map(\.field)
    }

    /// The first field whose name cannot be a field of a resource's JSON (letters, digits and
    /// `_`), if any.
    var invalidField: String? {
        fields.first { !OfflineOrder.ascending($0).isValid }
    }
}
