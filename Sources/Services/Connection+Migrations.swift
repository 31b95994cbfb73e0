extension Connection {
    /// Brings the tables of one feature (`schema`) up to date; see ``Database/migrate(schema:_:)``.
    ///
    /// - Parameters:
    ///   - schema: The feature's name, such as `melodies`.
    ///   - migrations: The feature's steps.
    /// - Throws: ``DatabaseError``.
    func migrate(schema: String, _ migrations: [Migration]) throws {
        try execute(
            "CREATE TABLE IF NOT EXISTS schema_versions (name TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        let found = try scalar("SELECT version FROM schema_versions WHERE name = ?", [.text(schema)])
        let version: Int
        if case .integer(let stored) = found { version = Int(stored) } else { version = 0 }
        try apply(migrations, found: version, label: "schema \(schema)") { version in
            try execute(
                "INSERT INTO schema_versions (name, version) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET version = excluded.version",
                [.text(schema), .integer(Int64(version))])
        }
    }

    /// Runs the steps newer than `found`, in version order, each with `record` in one transaction.
    func apply(
        _ migrations: [Migration], found: Int, label: String, record: (Int) throws -> Void
    ) throws {
        let steps = migrations.sorted { $0.version < $1.version }
        let known = steps.last?.version ?? 0
        guard found <= known else {
            throw DatabaseError(
                kind: .newerSchema(found: found, known: known), message: "\(label) \(found)", path: path)
        }
        for step in steps where step.version > found {
            try transaction {
                try executeScript(step.sql)
                try record(step.version)
            }
        }
    }
}
