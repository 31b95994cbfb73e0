extension Connection {
    /// Brings one schema up to date: the app's own (``appSchema``), a feature's (see
    /// ``Database/migrate(schema:_:)``), or the library's (``cacheStampsSchema``). This is the one
    /// way a schema is versioned: its version is a row of the `schema_versions` table.
    ///
    /// - Parameters:
    ///   - schema: The schema's name, such as `melodies`.
    ///   - migrations: Its steps.
    ///   - earlierVersion: For a file written before its schema had a row: the version it was at
    ///     (the app's schema was kept in `PRAGMA user_version`), taken as the row's first value.
    /// - Throws: ``DatabaseError``.
    func migrate(schema: String, _ migrations: [Migration], earlierVersion: () throws -> Int = { 0 }) throws {
        // Already at its newest step: nothing to write, so no write lock to wait for (another
        // process may hold it for seconds). Any other version is read again under the lock.
        if let newest = migrations.map(\.version).max(), try schemaVersion(schema) == newest { return }
        try apply(migrations, label: "schema \(schema)") {
            try execute(
                "CREATE TABLE IF NOT EXISTS schema_versions (name TEXT PRIMARY KEY, version INTEGER NOT NULL)"
            )
            return try schemaVersion(schema) ?? earlierVersion()
        } record: { version in
            try execute(
                "INSERT INTO schema_versions (name, version) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET version = excluded.version",
                [.text(schema), .integer(Int64(version))])
            if schema == Self.appSchema {
                // Mirrored where earlier versions of this library kept it, so that they refuse a
                // file this version moved on rather than apply their steps to it again.
                // sql-constant: PRAGMA takes no bound parameters; the version is an Int from the code.
                try executeScript("PRAGMA user_version = \(version)")
            }
        }
    }

    /// The version `schema` is at, or `nil` when it has no row (or there is no table yet).
    func schemaVersion(_ schema: String) throws -> Int? {
        let table = try scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_versions'")
        guard case .integer(1) = table,
            case .integer(let stored) = try scalar(
                "SELECT version FROM schema_versions WHERE name = ?", [.text(schema)])
        else { return nil }
        return try Int(database: stored, column: "schema_versions.version")
    }

    /// The name of the app's own schema, the `migrations` a ``Database`` is opened with.
    static let appSchema = "app"

    /// The library's own table of when each cache was saved (``setCacheStamp(_:to:)``), made when a
    /// database is opened. `IF NOT EXISTS`: files of earlier versions made it on first use.
    static let cacheStampsSchema = (
        name: "cache_stamps",
        migrations: [
            Migration(
                version: 1,
                sql: "CREATE TABLE IF NOT EXISTS cache_stamps (name TEXT PRIMARY KEY, saved_at REAL NOT NULL)"
            ),
            // The validators of the answer each copy was saved from (`CacheValidators`, as JSON).
            Migration(version: 2, sql: "ALTER TABLE cache_stamps ADD COLUMN validators TEXT"),
            // How each copy was brought up to date, for a diagnostics snapshot: answers saved whole,
            // answers the API confirmed with `304`, changes applied (`CacheStampEvent`).
            Migration(
                version: 3,
                sql: """
                    ALTER TABLE cache_stamps ADD COLUMN saved INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE cache_stamps ADD COLUMN confirmed INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE cache_stamps ADD COLUMN updated INTEGER NOT NULL DEFAULT 0;
                    """),
        ]
    )

    /// Runs the steps newer than the version `found` reads, in version order, then `record`s the
    /// newest, all in one write transaction: the version is read under the write lock, so two
    /// connections (two processes opening a new file at once) never both apply a step, and a step
    /// that fails leaves the file as it was.
    func apply(
        _ migrations: [Migration], label: String, found: () throws -> Int, record: (Int) throws -> Void
    ) throws {
        let steps = migrations.sorted { $0.version < $1.version }
        let known = steps.last?.version ?? 0
        try transaction {
            let version = try found()
            guard version <= known else {
                throw DatabaseError(
                    kind: .newerSchema(found: version, known: known), message: "\(label) \(version)",
                    path: path)
            }
            let newer = steps.filter { $0.version > version }
            guard let newest = newer.last else { return }
            for step in newer {
                if let run = step.run { try run(self) } else { try executeScript(step.sql) }
            }
            try record(newest.version)
        }
    }
}
