import Foundation

/// The rows of the `offline_resources` table: every ``OfflineCollection``'s copy of its resources,
/// as JSON, one collection apart from another.
enum OfflineRows {
    static let migrations = [
        Migration(
            version: 1,
            sql: """
                CREATE TABLE offline_resources (
                    collection TEXT NOT NULL,
                    id TEXT NOT NULL,
                    json BLOB NOT NULL,
                    origin TEXT NOT NULL,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    position INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (collection, id)
                );
                """)
    ]

    /// A row of the API's copy, which a fresh listing replaces.
    static let api = "api"
    /// A row changed on this device and not confirmed by the API yet: kept through fresh listings.
    static let device = "device"

    /// The resources shown: the API's order, then what was created here; deleted ones hidden.
    static func all(_ collection: String, _ connection: Connection) throws -> [Data] {
        try connection.query(
            "SELECT json FROM offline_resources WHERE collection = ? AND deleted = 0 ORDER BY position, rowid",
            [.text(collection)]
        ) { try $0.data("json") }
    }

    /// One resource's JSON, deleted ones included, and whether it was deleted here.
    static func one(_ collection: String, _ id: String, _ connection: Connection) throws -> (
        json: Data, deleted: Bool
    )? {
        try connection.query(
            "SELECT json, deleted FROM offline_resources WHERE collection = ? AND id = ?",
            [.text(collection), .text(id)]
        ) { (json: try $0.data("json"), deleted: try $0.int("deleted") != 0) }.first
    }

    /// Writes `json` as resource `id`, replacing what was there.
    static func put(
        _ json: Data, id: String, origin: String, _ collection: String, _ connection: Connection,
        position: Int? = nil
    ) throws {
        try connection.execute(
            """
            INSERT INTO offline_resources (collection, id, json, origin, position) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (collection, id) DO UPDATE SET json = excluded.json, origin = excluded.origin, deleted = 0,
                position = coalesce(?, position)
            """,
            [
                .text(collection), .text(id), .blob(json), .text(origin),
                .integer(Int64(position ?? Int(Int32.max))),
                position.map { .integer(Int64($0)) } ?? .null,
            ])
    }

    static func markDeleted(_ collection: String, _ id: String, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE offline_resources SET deleted = 1, origin = ? WHERE collection = ? AND id = ?",
            [.text(device), .text(collection), .text(id)])
    }

    static func remove(
        _ collection: String, _ id: String, _ connection: Connection, onlyFrom origin: String? = nil
    ) throws {
        if let origin {
            try connection.execute(
                "DELETE FROM offline_resources WHERE collection = ? AND id = ? AND origin = ?",
                [.text(collection), .text(id), .text(origin)])
        } else {
            try connection.execute(
                "DELETE FROM offline_resources WHERE collection = ? AND id = ?",
                [.text(collection), .text(id)])
        }
    }

    /// Replaces the API's copy by `fresh` (each JSON with its id), keeping the rows changed here.
    static func replaceAPICopy(
        _ fresh: [(id: String, json: Data)], _ collection: String, _ connection: Connection
    ) throws {
        try connection.execute(
            "DELETE FROM offline_resources WHERE collection = ? AND origin = ?",
            [.text(collection), .text(api)])
        for (position, resource) in fresh.enumerated() {
            try connection.execute(
                """
                INSERT INTO offline_resources (collection, id, json, origin, position) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (collection, id) DO UPDATE SET position = excluded.position
                """,
                [
                    .text(collection), .text(resource.id), .blob(resource.json), .text(api),
                    .integer(Int64(position)),
                ])
        }
    }

    /// Gives a created resource the API's identifier, its JSON too.
    static func rename(
        _ collection: String, _ localID: String, to remoteID: String, json: Data, _ connection: Connection
    )
        throws
    {
        try remove(collection, remoteID, connection)
        try connection.execute(
            "UPDATE offline_resources SET id = ?, json = ? WHERE collection = ? AND id = ?",
            [.text(remoteID), .blob(json), .text(collection), .text(localID)])
    }
}
