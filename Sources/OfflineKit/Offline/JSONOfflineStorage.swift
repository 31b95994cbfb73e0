import Foundation
import Services

/// The storage of an ``OfflineCollection`` made with a collection name: each resource as JSON, in
/// the `offline_resources` table that every such collection shares, one apart from another by
/// name.
struct JSONOfflineStorage<Resource: OfflineResource>: OfflineStorage {
    static var migrations: [Migration] { OfflineResourcesTable.migrations }

    let tables: FeatureDatabase
    let outbox: Outbox
    let collection: String
    /// Dates each row saved, for ``StorageBudget`` to let go of the oldest first.
    let now: @Sendable () -> Date

    init(database: Database, collection: String, now: @escaping @Sendable () -> Date) {
        self.collection = collection
        self.now = now
        outbox = Outbox(database: database, feature: collection, now: now)
        tables = FeatureDatabase(
            database, schema: "offline_resources", migrations: Self.migrations, waitingFor: [outbox.ready])
    }

    var copyStamp: String { OfflineResourcesTable.copyStamp(collection) }
    var observedTables: Set<String> { ["offline_resources"] }

    /// Dates the row's use (`used_at`) now, never back.
    func markRead(id: String, in connection: Connection) throws {
        try connection.execute(
            "UPDATE offline_resources SET used_at = MAX(used_at, ?) WHERE collection = ? AND id = ?",
            [.real(now().timeIntervalSince1970), .text(collection), .text(id)])
    }

    /// The resource a row of the copy holds. A row this version cannot read is this device's
    /// data, not the server's: the error says so, with the collection and the reason.
    func stored(_ row: ColumnReader) throws -> Resource {
        let json = try row.data("json")
        do {
            return try APIClient.decode(Resource.self, from: json)
        } catch {
            var reason = ""
            if case .decodingFailed(_, let why) = ServiceRequestError(error) { reason = ": \(why)" }
            throw OfflineModelError.unreadable(
                "this device's saved \(collection) cannot be read as \(Resource.self) by this version of the app\(reason)"
            )
        }
    }

    /// The API's order, then what was created here; deleted ones hidden.
    func resources(in connection: Connection) throws -> [Resource] {
        try connection.query(
            "SELECT json FROM offline_resources WHERE collection = ? AND deleted = 0 ORDER BY position, rowid",
            [.text(collection)]
        ) { try stored($0) }
    }

    func resource(id: String, in connection: Connection) throws -> (value: Resource, deleted: Bool)? {
        try connection.query(
            "SELECT json, deleted FROM offline_resources WHERE collection = ? AND id = ?",
            [.text(collection), .text(id)]
        ) {
            (
                value: try stored($0),
                deleted: try $0.int("deleted") != 0
            )
        }
        .first
    }

    /// Keeps the row's place in the list; a new row goes after the API's.
    func put(_ resource: Resource, from origin: OfflineOrigin, in connection: Connection) throws {
        try connection.execute(
            """
            INSERT INTO offline_resources (collection, id, json, origin, position, used_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (collection, id) DO UPDATE SET
                json = excluded.json, origin = excluded.origin, deleted = 0, used_at = excluded.used_at
            """,
            [
                .text(collection), .text(resource.id ?? ""), .blob(try APIClient.encode(resource)),
                .text(origin.rawValue), .integer(Int64(Int32.max)), .real(now().timeIntervalSince1970),
            ])
    }

    func markDeleted(id: String, in connection: Connection) throws {
        try connection.execute(
            "UPDATE offline_resources SET deleted = 1, origin = ? WHERE collection = ? AND id = ?",
            [.text(OfflineOrigin.device.rawValue), .text(collection), .text(id)])
    }

    /// The resources of a collection changed on this device. `'device'` is written out, not
    /// bound: SQLite takes the partial index `offline_changed_here` only for a condition it can
    /// see is the index's own. Named, not left to the planner: without statistics it took an
    /// index of a query or a page that also leads with the collection, and walked the whole
    /// collection through it (43 ms a snapshot or query at 100,000 rows, for none changed here).
    static var changedHere: String {
        "SELECT id FROM offline_resources INDEXED BY offline_changed_here WHERE collection = ? AND origin = 'device'"
    }

    func idsChangedHere(in connection: Connection) throws -> [String] {
        try connection.query(Self.changedHere, [.text(collection)]) { try $0.string("id") }
    }

    func remove(id: String, from origin: OfflineOrigin?, in connection: Connection) throws {
        try connection.execute(
            "DELETE FROM offline_resources WHERE collection = ? AND id = ? AND (? IS NULL OR origin = ?)",
            [
                .text(collection), .text(id), origin.map { .text($0.rawValue) } ?? .null,
                origin.map { .text($0.rawValue) } ?? .null,
            ])
    }
}
