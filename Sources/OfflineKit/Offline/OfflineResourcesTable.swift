import Services

/// The SQL of the `offline_resources` table every collection made with a name shares
/// (``JSONOfflineStorage``), and of what ``StorageBudget`` keeps beside it.
enum OfflineResourcesTable {
    /// The name the date and validators of `collection`'s last listing are kept under.
    static func copyStamp(_ collection: String) -> String { "offline:\(collection)" }

    /// What a row takes, as a ``StorageBudget`` counts it: its JSON and identifier as stored.
    static let rowBytes = "length(json) + length(id)"

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
                """),
        // The resources changed here, which every snapshot and page looks up, found without
        // reading the rest of the collection.
        Migration(
            version: 2,
            sql:
                "CREATE INDEX IF NOT EXISTS offline_changed_here ON offline_resources (collection, id) WHERE origin = 'device'"
        ),
        // A storage budget: when each row was last saved (the oldest go first, in that index's
        // order).
        Migration(
            version: 3,
            sql: """
                ALTER TABLE offline_resources ADD COLUMN used_at REAL NOT NULL DEFAULT 0;
                CREATE INDEX offline_resources_by_use ON offline_resources (used_at);
                """),
    ]
}
