/// Which SQLite files are this library's: those it made carry its `application_id` (SQLite's
/// header field for telling one app's files from another's). A file of another app is refused
/// before anything is written to it, so it stays byte-identical.
///
/// | the file | what happens |
/// | --- | --- |
/// | our `application_id` | opened |
/// | another `application_id` | refused, unchanged (``DatabaseError/Kind/madeByAnotherApp``) |
/// | no `application_id`, no tables (a new or empty file) | adopted: the id is written |
/// | no `application_id`, any table (a `schema_versions` table or a `user_version` included) | refused, unchanged |
///
/// Nothing but an empty file is adopted: a table named like one of ours says nothing of who made
/// the file, and writing the id (or a migration) to another app's file would change it for good.
enum DatabaseOwnership {
    /// "PMVP": this library's `application_id`.
    static let applicationID: Int32 = 0x504D_5650

    /// Checks that the file on `connection` is ours, or empty and may become ours, and marks it so.
    ///
    /// - Parameter connection: A connection to the file, opened, nothing written yet.
    /// - Throws: ``DatabaseError`` (`madeByAnotherApp`) for any other file.
    ///
    /// The id and the tables are read, and the id written, in one transaction: another process
    /// making the same new file at the same moment (which writes the id, then its tables) is seen
    /// either before it began or after it wrote the id, never in between.
    static func claim(_ connection: Connection) throws {
        let found = try integer("PRAGMA application_id", connection)
        if found == Int64(applicationID) { return }
        try connection.transaction {
            let found = try integer("PRAGMA application_id", connection)
            if found == Int64(applicationID) { return }
            guard found == 0, try isEmpty(connection) else {
                throw DatabaseError(
                    kind: .madeByAnotherApp,
                    message: found == 0 ? "it has tables of its own" : "its application_id is \(found)",
                    path: connection.path)
            }
            // sql-constant: PRAGMA takes no bound parameters; the id is this type's constant.
            try connection.executeScript("PRAGMA application_id = \(applicationID)")
        }
    }

    /// Whether a file holds no table, index, view or trigger (nothing but SQLite's own).
    private static func isEmpty(_ connection: Connection) throws -> Bool {
        try integer("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'", connection) == 0
    }

    private static func integer(_ sql: String, _ connection: Connection) throws -> Int64 {
        guard case .integer(let value) = try connection.scalar(sql) else { return 0 }
        return value
    }
}
