import Services

/// Any ``OfflineStorage`` of `Resource`, for an ``OfflineCollection`` to hold whatever storage it
/// was made with (a constrained `any OfflineStorage<Resource>` needs iOS 16 / macOS 13 at run time).
struct AnyOfflineStorage<Resource: OfflineResource>: OfflineStorage {
    var tables: FeatureDatabase
    var outbox: Outbox
    /// The collection's name in the shared JSON table, when it is kept there
    /// (``JSONOfflineStorage``): the rows a model upgrade brings over.
    let jsonRows: String?
    let copyStamp: String
    let observedTables: Set<String>
    private let all: @Sendable (Connection) throws -> [Resource]
    private let one: @Sendable (String, Connection) throws -> (value: Resource, deleted: Bool)?
    private let write: @Sendable (Resource, OfflineOrigin, Connection) throws -> Void
    private let mark: @Sendable (String, Connection) throws -> Void
    private let drop: @Sendable (String, OfflineOrigin?, Connection) throws -> Void
    private let replace: @Sendable ([Resource], Connection) throws -> Void
    private let changed: @Sendable (Connection) throws -> [String]
    private let paged:
        @Sendable (OfflineOrder, OfflinePageCursor?, Int, Connection) throws -> [(
            value: Resource, key: SQLValue
        )]
    private let prepare: @Sendable (OfflineOrder, Connection) throws -> Void
    private let queried:
        @Sendable (OfflineQuery, [SQLValue]?, Connection) throws -> [(value: Resource, keys: [SQLValue])]
    private let counted: @Sendable (OfflineFilter?, Connection) throws -> Int
    private let held: @Sendable (String, Connection) throws -> Bool
    private let indexing: @Sendable ([String], Connection) throws -> Void
    /// The copy's rows and bytes (``OfflineStorage/copySize(in:)`` of the storage it holds).
    let sized: @Sendable (Connection) throws -> (rows: Int, bytes: Int)
    private let read: @Sendable (String, Connection) throws -> Void
    /// Whose data the collection holds, checked before every read and write; `nil` for a client
    /// that does not sign in.
    private(set) var owner: OfflineOwner?
    /// The fields that name other resources, read with the API's identifiers in place of the
    /// ones made here once the API gave them; `nil` when the collection declared none.
    var references: OfflineReferences<Resource>?

    init<Storage: OfflineStorage>(_ storage: Storage, owner: OfflineOwner? = nil)
    where Storage.Resource == Resource {
        self.owner = owner
        tables = storage.tables
        outbox = storage.outbox
        jsonRows = (storage as? JSONOfflineStorage<Resource>)?.collection
        copyStamp = storage.copyStamp
        observedTables = storage.observedTables
        all = { try storage.resources(in: $0) }
        one = { try storage.resource(id: $0, in: $1) }
        write = { try storage.put($0, from: $1, in: $2) }
        mark = { try storage.markDeleted(id: $0, in: $1) }
        drop = { try storage.remove(id: $0, from: $1, in: $2) }
        replace = { try storage.replaceAPICopy(with: $0, in: $1) }
        changed = { try storage.idsChangedHere(in: $0) }
        paged = { try storage.page($0, after: $1, limit: $2, in: $3) }
        prepare = { try storage.preparePages($0, in: $1) }
        queried = { try storage.query($0, after: $1, in: $2) }
        counted = { try storage.count($0, in: $1) }
        held = { try storage.hasField($0, in: $1) }
        indexing = { try storage.prepareQueries(on: $0, in: $1) }
        sized = { try storage.copySize(in: $0) }
        read = { try storage.markRead(id: $0, in: $1) }
    }

    /// The same storage, not checked: for erasing another account's data.
    var unchecked: AnyOfflineStorage {
        var copy = self
        copy.owner = nil
        return copy
    }

    func resources(in connection: Connection) throws -> [Resource] {
        try owner?.check(connection, claiming: false)
        guard let references else { return try all(connection) }
        return try all(connection).map { try references.renamed($0, connection) }
    }

    func resource(id: String, in connection: Connection) throws -> (value: Resource, deleted: Bool)? {
        try owner?.check(connection, claiming: false)
        let row = try one(id, connection)
        guard let references, let row else { return row }
        return (try references.renamed(row.value, connection), row.deleted)
    }

    func put(_ resource: Resource, from origin: OfflineOrigin, in connection: Connection) throws {
        try owner?.check(connection, claiming: true)
        try write(resource, origin, connection)
    }

    func markDeleted(id: String, in connection: Connection) throws {
        try owner?.check(connection, claiming: true)
        try mark(id, connection)
    }

    func remove(id: String, from origin: OfflineOrigin?, in connection: Connection) throws {
        try drop(id, origin, connection)
    }

    /// Undoes resource `id`'s dropped changes `entries` here: one the API never had goes; one it
    /// has comes back as the API has it at the next listing.
    func undo(_ entries: [OutboxEntry], of id: String, in connection: Connection) throws {
        let created = entries.contains { $0.method == .post }
        try remove(id: id, from: created ? nil : .device, in: connection)
        // The API's version of it is no longer here: the next listing must bring it whole.
        if !created { try connection.forgetCacheValidators(copyStamp) }
    }

    func replaceAPICopy(with fresh: [Resource], in connection: Connection) throws {
        try owner?.check(connection, claiming: true)
        try replace(fresh, connection)
    }

    func idsChangedHere(in connection: Connection) throws -> [String] {
        try changed(connection)
    }

    func markRead(id: String, in connection: Connection) throws {
        try read(id, connection)
    }

    func page(_ order: OfflineOrder, after cursor: OfflinePageCursor?, limit: Int, in connection: Connection)
        throws -> [(value: Resource, key: SQLValue)]
    {
        try owner?.check(connection, claiming: false)
        guard let references else { return try paged(order, cursor, limit, connection) }
        return try paged(order, cursor, limit, connection).map {
            (try references.renamed($0.value, connection), $0.key)
        }
    }

    func preparePages(_ order: OfflineOrder, in connection: Connection) throws {
        try prepare(order, connection)
    }

    func query(_ query: OfflineQuery, after cursor: [SQLValue]?, in connection: Connection) throws
        -> [(value: Resource, keys: [SQLValue])]
    {
        try owner?.check(connection, claiming: false)
        guard let references else { return try queried(query, cursor, connection) }
        return try queried(query, cursor, connection).map {
            (try references.renamed($0.value, connection), $0.keys)
        }
    }

    func count(_ filter: OfflineFilter?, in connection: Connection) throws -> Int {
        try owner?.check(connection, claiming: false)
        return try counted(filter, connection)
    }

    func hasField(_ field: String, in connection: Connection) throws -> Bool {
        try held(field, connection)
    }

    func prepareQueries(on fields: [String], in connection: Connection) throws {
        try indexing(fields, connection)
    }
}
