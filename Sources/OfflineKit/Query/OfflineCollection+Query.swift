public import Foundation
public import Promises
public import Services

/// Questions a screen asks of the collection's copy: see ``OfflineQuery``.
extension OfflineCollection {
    /// The resources `query` finds in the copy, with this device's changes applied, their sync
    /// states and the changes waiting for them. It reads this device only; a listing or a sync
    /// brings the copy up to date.
    ///
    /// ```swift
    /// tasks.query(OfflineQuery(where: .equals("projectId", .text(projectID)), sortedBy: [.ascending("due")]))
    ///     .done { result in view.show(result.values, waiting: result.status.waiting) }
    /// ```
    ///
    /// - Parameter query: The question.
    /// - Returns: A promise of the result; rejected when a field's name cannot be a field
    ///   (`ServiceRequestError/storageFailed(reason:)`), or the collection has resources and none
    ///   of them has a field the query names.
    public func query(_ query: OfflineQuery) -> Promise<OfflineQueryResult<Resource>> {
        if let refused = Self.refusal(query) { return Promise(error: refused) }
        return storage.tables.read(reading(query, after: nil))
    }

    /// The result after `cursor`: the next page of the query that gave it.
    ///
    /// - Parameter cursor: The ``OfflineQueryResult/next`` of the result before.
    /// - Returns: A promise of the result.
    public func query(after cursor: OfflineQuery.Cursor) -> Promise<OfflineQueryResult<Resource>> {
        storage.tables.read(reading(cursor.query, after: cursor.keys))
    }

    /// How many resources of the copy `filter` keeps (all of them without one), counted through
    /// a declared index where there is one.
    ///
    /// - Parameter filter: Which resources; all by default.
    /// - Returns: A promise of the count.
    public func count(where filter: OfflineFilter? = nil) -> Promise<Int> {
        let query = OfflineQuery(where: filter)
        if let refused = Self.refusal(query) { return Promise(error: refused) }
        let storage = storage
        return storage.tables.read { connection in
            let count = try storage.count(filter.map { try Self.following($0, connection) }, in: connection)
            // A count of none, or of resources that need not hold every field named (`isNull`),
            // shows nothing of the fields: they are checked.
            let shown = filter?.fieldsEveryMatchHolds ?? []
            if count == 0 || !shown.isSuperset(of: query.fields) {
                try Self.requireFields(query, [], storage, connection)
            }
            return count
        }
    }

    /// Observes `query`: `onChange` gets its result at once, then again whenever it changed (a
    /// listing, an edit, a sync, a rename, another process), never for a write that leaves it as
    /// it was. See ``observe(on:_:)`` for the rules it follows.
    ///
    /// - Parameters:
    ///   - query: The question.
    ///   - dispatcher: Where `onChange` runs; the main queue by default.
    ///   - onChange: Gets each result, or why it could not be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observe(
        _ query: OfflineQuery, on dispatcher: any Dispatcher = DispatchQueue.main,
        _ onChange: @escaping @Sendable (Result<OfflineQueryResult<Resource>, ServiceRequestError>) -> Void
    ) -> ObservationHandle where Resource: Equatable {
        if let refused = Self.refusal(query) {
            dispatcher.dispatch { onChange(.failure(refused)) }
            return ObservationHandle {}
        }
        return storage.observe(on: dispatcher, reading: reading(query, after: nil), onChange)
    }

    /// The collection with an index on `fields`, in that order, made now (in the background,
    /// before any read that follows) as an SQLite expression index on the stored JSON. Queries
    /// that filter on the first field (or the first few) and sort on the next read through it
    /// instead of the whole collection; so do pages ordered by a single field. Declare one for
    /// each question a screen asks often. A file that cannot be written is still queried, by
    /// reading the collection.
    ///
    /// ```swift
    /// let tasks = OfflineCollection<Task>(database: database, collection: "tasks", client: api)
    ///     .indexed(by: "projectId", "due")   // the tasks of a project, by due date
    ///     .indexed(by: "due")                // everything due soon
    /// ```
    ///
    /// - Parameter fields: Fields of the resource's JSON: letters, digits and `_`; an index with a
    ///   field of another name is not made.
    /// - Returns: The same collection.
    public func indexed(by fields: String...) -> OfflineCollection {
        let storage = storage
        guard !fields.isEmpty, fields.allSatisfy({ OfflineOrder.ascending($0).isValid }) else { return self }
        storage.tables.write { try storage.prepareQueries(on: fields, in: $0) }.cauterize()
        return self
    }

    /// Why `query` cannot be asked at all: a field's name that cannot be a field.
    static func refusal(_ query: OfflineQuery) -> ServiceRequestError? {
        query.invalidField.map {
            .storageFailed(
                reason: "\"\($0)\" cannot be asked of a collection: a field's name is letters, digits and _")
        }
    }

    /// The read of `query` after `cursor`, in one transaction: the rows, their states, and the
    /// changes that wait for them.
    func reading(_ query: OfflineQuery, after cursor: [SQLValue]?)
        -> @Sendable (Connection) throws -> OfflineQueryResult<Resource>
    {
        let storage = storage
        return { connection in
            var asked = query
            asked.filter = try query.filter.map { try Self.following($0, connection) }
            let limit = query.limit.map { max(1, $0) }
            asked.limit = limit.map { $0 + 1 }
            let rows = try storage.query(asked, after: cursor, in: connection)
            if cursor == nil { try Self.requireFields(query, rows, storage, connection) }
            let shown = limit.map { Array(rows.prefix($0)) } ?? rows
            let next =
                limit.map { rows.count > $0 } ?? false
                ? shown.last.map { OfflineQuery.Cursor(query: query, keys: $0.keys) } : nil
            let ids = Set(shown.map { IdentifierKey($0.value.id ?? "") })
            let status = OutboxStatus(
                entries: try OutboxTable.entries(storage.outbox.feature, nil, connection)
                    .filter { ids.contains(IdentifierKey($0.localID)) },
                changedHere: try storage.idsChangedHere(in: connection).filter {
                    ids.contains(IdentifierKey($0))
                })
            return OfflineQueryResult(
                items: shown.map { OfflineItem(value: $0.value, state: status.state(of: $0.value.id ?? "")) },
                next: next, status: status, savedAt: try connection.cacheStamp(storage.copyStamp))
        }
    }

    /// `filter` with each identifier it names widened to every identifier that resource has had
    /// here (``OutboxTable/aliases(of:_:)``): made with a local id, it keeps matching the rows that
    /// name the API's, and the other way round.
    static func following(_ filter: OfflineFilter, _ connection: Connection) throws -> OfflineFilter {
        func widened(_ values: [OfflineValue]) throws -> [OfflineValue] {
            var seen = Set<OfflineValue>()
            return try values.flatMap { value -> [OfflineValue] in
                guard case .text(let id) = value else { return [value] }
                return try OutboxTable.aliases(of: id, connection).map(OfflineValue.text)
            }
            .filter { seen.insert($0).inserted }
        }
        switch filter {
        case .equals(let field, let value):
            let values = try widened([value])
            return values.count == 1 ? filter : .isIn(field, values)
        case .isIn(let field, let values):
            return .isIn(field, try widened(values))
        case .all(let filters):
            return .all(try filters.map { try following($0, connection) })
        case .any(let filters):
            return .any(try filters.map { try following($0, connection) })
        default:
            return filter
        }
    }

    /// Whether `value` is an optional holding nothing.
    static func holdsNothing(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    /// Throws when the collection has resources and a field `query` names is neither a property
    /// of theirs nor held by any of them: a misspelt field would otherwise find nothing, or order
    /// nothing, without a word.
    static func requireFields(
        _ query: OfflineQuery, _ rows: [(value: Resource, keys: [SQLValue])],
        _ storage: AnyOfflineStorage<Resource>,
        _ connection: Connection
    ) throws {
        let sorted = Dictionary(query.sort.enumerated().map { ($1.field, $0) }) { first, _ in first }
        let heldByEveryRow = query.filter?.fieldsEveryMatchHolds ?? []
        var checked = Set<String>()
        for field in query.fields where checked.insert(field).inserted {
            // A field some row shown holds a value of is the model's: a field it is sorted by
            // whose key is not `NULL`, or one the filter kept it for holding (not `isNull`).
            if let index = sorted[field], rows.contains(where: { $0.keys[index] != .null }) { continue }
            if !rows.isEmpty && heldByEveryRow.contains(field) { continue }
            guard
                let sample = try rows.first?.value
                    ?? storage.query(OfflineQuery(limit: 1), after: nil, in: connection).first?.value
            else { return }
            // A property of that name holding nothing is left out of the JSON, so its JSON name
            // cannot be checked: taken as the field. One holding a value whose JSON has no such
            // field is a Swift name the JSON spells otherwise (`CodingKeys`): an error below.
            if let property = Mirror(reflecting: sample).children.first(where: { $0.label == field }),
                Self.holdsNothing(property.value)
            {
                continue
            }
            if try storage.hasField(field, in: connection) { continue }
            throw ServiceRequestError.storageFailed(
                reason:
                    "\"\(field)\" cannot be asked of \(storage.outbox.feature): no \(Resource.self) has a field of that name"
            )
        }
    }
}
