/// Which SQLite files are this library's: those it made carry its `application_id` (SQLite's
/// header field for telling one app's files from another's). A file of another app is refused
/// before anything is written to it, so it stays byte-identical.
///
/// | the file | what happens |
/// | --- | --- |
/// | our `application_id` | opened |
/// | another `application_id` | refused, unchanged (``DatabaseError/Kind/madeByAnotherApp``) |
/// | no `application_id`, no tables (a new or empty file) | adopted: the id is written |
/// | no `application_id`, made by an earlier version of this library (a `schema_versions` table, or a `user_version` within the app's migrations) | adopted once |
/// | no `application_id`, tables of its own | refused, unchanged |
enum DatabaseOwnership {
    /// "PMVP": this library's `application_id`.
    static let applicationID: Int32 = 0x504D_5650

    /// Checks that the file on `connection` is ours, or may become ours, and marks it so.
    ///
    /// - Parameters:
    ///   - connection: A connection to the file, opened, nothing written yet.
    ///   - migrations: The app's own steps (`user_version`), for recognising its earlier files.
    /// - Throws: ``DatabaseError`` (`madeByAnotherApp`) for another app's file.
    static func claim(_ connection: Connection, migrations: [Migration]) throws {
        let found = try integer("PRAGMA application_id", connection)
        if found == Int64(applicationID) { return }
        guard found == 0, try isOurs(connection, migrations: migrations) else {
            throw DatabaseError(
                kind: .madeByAnotherApp,
                message: found == 0 ? "it has tables of its own" : "its application_id is \(found)",
                path: connection.path)
        }
        // sql-constant: PRAGMA takes no bound parameters; the id is this type's constant.
        try connection.executeScript("PRAGMA application_id = \(applicationID)")
    }

    /// Whether a file without an `application_id` is empty or was made by an earlier version.
    private static func isOurs(_ connection: Connection, migrations: [Migration]) throws -> Bool {
        let tables = try integer(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", connection
        )
        if tables == 0 { return true }
        let versioned = try integer(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_versions'", connection
        )
        if versioned > 0 { return true }
        let userVersion = try integer("PRAGMA user_version", connection)
        return userVersion > 0 && userVersion <= Int64(migrations.map(\.version).max() ?? 0)
    }

    private static func integer(_ sql: String, _ connection: Connection) throws -> Int64 {
        guard case .integer(let value) = try connection.scalar(sql) else { return 0 }
        return value
    }
}
