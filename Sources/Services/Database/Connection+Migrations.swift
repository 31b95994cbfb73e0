extension Connection {
    /// Brings the tables of one feature (`schema`) up to date; see ``Database/migrate(schema:_:)``.
    ///
    /// - Parameters:
    ///   - schema: The feature's name, such as `melodies`.
    ///   - migrations: The feature's steps.
    /// - Throws: ``DatabaseError``.
    func migrate(schema: String, _ migrations: [Migration]) throws {
        try apply(migrations, label: "schema \(schema)") {
            try execute(
                "CREATE TABLE IF NOT EXISTS schema_versions (name TEXT PRIMARY KEY, version INTEGER NOT NULL)"
            )
            let found = try scalar("SELECT version FROM schema_versions WHERE name = ?", [.text(schema)])
            guard case .integer(let stored) = found else { return 0 }
            return try Int(database: stored, column: "schema_versions.version")
        } record: { version in
            try execute(
                "INSERT INTO schema_versions (name, version) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET version = excluded.version",
                [.text(schema), .integer(Int64(version))])
        }
    }

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
                try executeScript(step.sql)
            }
            try record(newest.version)
        }
    }
}
