// The SQLite seam: Apple platforms link the SDK's own SQLite (its `SQLite3` module); Linux the
// system library through `CSQLite` (pkg-config `sqlite3`, Package.swift).
#if canImport(Darwin)
    import SQLite3
#elseif os(Linux)
    import CSQLite
#else
    #error("The database is built on Apple's SQLite3 module and on Linux's libsqlite3")
#endif

/// The tables a connection's statements changed since it was last asked: what tells a database's
/// observations which of them to read again after a write commits.
///
/// SQLite reports every row inserted, updated or deleted to an update hook, with its table. One
/// kind of change would slip past it: a `DELETE` without a `WHERE` clause empties the table in one
/// step without visiting rows (SQLite's "truncate optimization"), and the hook is not called. An
/// authorizer that answers `SQLITE_IGNORE` to a delete turns that optimization off (the delete
/// still runs, row by row), so every change reaches the hook.
final class ChangedTables {
    /// The lowercased names of the tables changed since the last ``take()``.
    private var names: Set<String> = []

    /// Starts recording the changes made through `handle`. The hooks hold this object unretained:
    /// the connection that owns it closes `handle` before it lets it go.
    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(
            handle,
            { context, _, _, table, _ in
                guard let context, let table else { return }
                let changes = Unmanaged<ChangedTables>.fromOpaque(context).takeUnretainedValue()
                changes.names.insert(String(cString: table).lowercased())
            }, context)
        sqlite3_set_authorizer(
            handle,
            { _, action, table, _, _, _ in
                // SQLite's own tables keep their optimizations; a delete from any other table
                // runs row by row, so that the update hook sees it.
                guard action == SQLITE_DELETE, let table, !String(cString: table).hasPrefix("sqlite_") else {
                    return SQLITE_OK
                }
                return SQLITE_IGNORE
            }, nil)
    }

    /// The tables changed since the last call, and forgets them.
    func take() -> Set<String> {
        defer { names.removeAll(keepingCapacity: true) }
        return names
    }
}
