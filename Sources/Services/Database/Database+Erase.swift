public import Promises

extension Database {
    /// Runs `body` in one write transaction whose deletions leave no trace in the file: SQLite's
    /// `secure_delete` overwrites what they free with zeros, and a `TRUNCATE` checkpoint then
    /// copies the log into the file and empties the `-wal`, where the deleted rows' older pages
    /// would otherwise stay until overwritten. For what a user asked to be erased (a sign-out
    /// that erases the account's data).
    ///
    /// - Parameter body: Deletes through the connection; it must not keep it.
    /// - Returns: A promise of what `body` returns; rejected with what it throws, or with a
    ///   ``DatabaseError`` when another connection kept the log from being emptied (its reader
    ///   still sees the old pages: erase again once it closed).
    public func erase<Value: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Value) -> Promise<
        Value
    > {
        write { connection in
            _ = try connection.scalar("PRAGMA secure_delete = ON")
            defer { _ = try? connection.scalar("PRAGMA secure_delete = OFF") }
            return try body(connection)
        }
        .then(on: .inline) { [self] value in
            read { connection in
                // Outside any transaction, on the database's queue: (busy, log frames, copied).
                let busy = try connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { try $0.int("busy") }
                    .first
                if busy == 1 {
                    throw DatabaseError(
                        kind: .busy, message: "another connection is reading: the log keeps erased pages",
                        path: connection.path)
                }
                return value
            }
        }
    }
}
