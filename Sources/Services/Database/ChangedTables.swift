import CSQLite  // SQLite, on every platform: Package.swift says how

/// The tables a connection's statements changed since it was last asked: what tells a database's
/// observations which of them to read again after a write commits.
///
/// SQLite reports every row inserted, updated or deleted to an update hook, with its table. One
/// kind of change slips past it: a `DELETE` without a `WHERE` clause empties the table in one step
/// without visiting rows (SQLite's "truncate optimization"), and the hook is not called. Those rows
/// are still counted by `sqlite3_total_changes`, so a write whose count is larger than what the
/// hook saw changed a table it cannot name: ``take(totalChanges:)`` then answers `nil`, "any
/// table". (An authorizer can turn the optimization off instead, but it also runs for `DROP
/// TABLE`, whose deletes it must not touch.)
final class ChangedTables {
    /// The lowercased names of the tables changed since the last ``take(totalChanges:)``.
    private var names: Set<String> = []
    /// How many row changes the hook saw meanwhile.
    private var seen: Int32 = 0
    /// `sqlite3_total_changes` when the last ``take(totalChanges:)`` was called.
    private var counted: Int32 = 0

    /// Starts recording the changes made through `handle`. The hook holds this object unretained:
    /// the connection that owns it closes `handle` before it lets it go.
    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        counted = sqlite3_total_changes(handle)
        sqlite3_update_hook(
            handle,
            { context, _, _, table, _ in
                guard let context, let table else { return }
                let changes = Unmanaged<ChangedTables>.fromOpaque(context).takeUnretainedValue()
                changes.names.insert(String(cString: table).lowercased())
                changes.seen &+= 1
            }, context)
    }

    /// The tables changed since the last call (`nil` when a change the hook did not see was
    /// made: any table may have changed), and forgets them.
    ///
    /// - Parameter totalChanges: `sqlite3_total_changes` of the connection now.
    /// - Returns: The lowercased table names, or `nil` for "any table".
    func take(totalChanges: Int32) -> Set<String>? {
        defer {
            names.removeAll(keepingCapacity: true)
            seen = 0
            counted = totalChanges
        }
        return totalChanges &- counted > seen ? nil : names
    }
}
