public import Foundation
public import Promises

/// A ready ``OfflineCache`` for any `Codable` value: the value as JSON and the time it was
/// saved, under a name, in one table of the app's database shared by every such cache.
///
/// A feature whose offline copy is read and written whole needs nothing more:
///
/// ```swift
/// let fallback = NetworkFallback(cache: CodableCache<[Recipe]>(database: database, name: "recipes"))
/// ```
///
/// A save replaces the value and its time in one transaction, so a load sees the old pair or the
/// new one, never a mix. A feature that queries its copy row by row (filters, offline writes)
/// keeps tables of its own instead, as ``FeatureDatabase`` shows.
public struct CodableCache<Value: Codable & Sendable>: OfflineCache {
    /// The steps of the shared `offline_values` table.
    static var migrations: [Migration] {
        [
            Migration(
                version: 1,
                sql: """
                    CREATE TABLE offline_values (
                        name TEXT PRIMARY KEY,
                        json BLOB NOT NULL,
                        saved_at REAL NOT NULL
                    )
                    """)
        ]
    }

    /// The name the value is kept under.
    public let name: String
    private let storage: FeatureDatabase

    /// Makes the cache of the value kept under `name`; its table is made once, in the background.
    ///
    /// - Parameters:
    ///   - database: The app's database.
    ///   - name: A name of the feature's own, such as `"recipes"`.
    public init(database: Database, name: String) {
        self.name = name
        storage = FeatureDatabase(database, schema: "offline_values", migrations: Self.migrations)
    }

    /// Replaces the saved value and its time, in one transaction.
    ///
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - date: When it was fetched.
    /// - Returns: A promise fulfilled once both are stored; rejected if the value cannot be
    ///   encoded or the database cannot be written.
    public func save(_ value: Value, at date: Date) -> Promise<Void> {
        let name = name
        return firstly { Promise.value(try APIClient.encode(value)) }
            .then(on: .inline) { json in
                storage.write { connection in
                    try connection.execute(
                        """
                        INSERT INTO offline_values (name, json, saved_at) VALUES (?, ?, ?)
                        ON CONFLICT(name) DO UPDATE SET json = excluded.json, saved_at = excluded.saved_at
                        """,
                        [.text(name), .blob(json), .real(date.timeIntervalSince1970)])
                }
            }
    }

    /// The saved value and when it was saved, or `nil` if nothing was saved under the name yet.
    ///
    /// - Returns: A promise of the copy; rejected if the saved JSON no longer decodes as `Value`.
    public func load() -> Promise<Cached<Value>?> {
        let name = name
        return storage.read { connection -> Cached<Value>? in
            let rows = try connection.query(
                "SELECT json, saved_at FROM offline_values WHERE name = ?", [.text(name)])
            guard let row = rows.first else { return nil }
            let value = try APIClient.decode(Value.self, from: try row.data("json"))
            return Cached(value: value, savedAt: Date(timeIntervalSince1970: try row.double("saved_at")))
        }
    }
}
