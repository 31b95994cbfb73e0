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
        save(value, at: date, validators: nil)
    }

    /// Replaces the saved value and its time, and keeps the validators of its answer (the next
    /// conditional GET sends them), in one transaction.
    ///
    /// - Parameters:
    ///   - value: The value to keep.
    ///   - date: When it was fetched.
    ///   - validators: What the answer said of its version; `nil` drops any kept before.
    /// - Returns: A promise fulfilled once all are stored.
    public func save(_ value: Value, at date: Date, validators: CacheValidators?) -> Promise<Void> {
        let (name, stamp) = (name, stamp)
        return firstly { Promise.value(try APIClient.encode(value)) }
            .then(on: .inline) { json in
                storage.write { connection in
                    try connection.execute(
                        """
                        INSERT INTO offline_values (name, json, saved_at) VALUES (?, ?, ?)
                        ON CONFLICT(name) DO UPDATE SET json = excluded.json, saved_at = excluded.saved_at
                        """,
                        [.text(name), .blob(json), .real(date.timeIntervalSince1970)])
                    try connection.setCacheStamp(stamp, to: date, validators: validators)
                }
            }
    }

    /// The validators the value was saved with.
    ///
    /// - Returns: A promise of them; `nil` when none.
    public func validators() -> Promise<CacheValidators?> {
        let stamp = stamp
        return storage.read { try $0.cacheValidators(stamp) }
    }

    /// Moves the saved value's time on after a `304`, keeping it and its validators.
    ///
    /// - Parameter date: When the API confirmed it.
    /// - Returns: A promise of the value, dated `date`; `nil` when nothing is saved.
    public func confirm(at date: Date) -> Promise<Cached<Value>?> {
        let (name, stamp) = (name, stamp)
        return storage.write { connection -> Cached<Value>? in
            guard
                let row = try connection.query(
                    "SELECT json FROM offline_values WHERE name = ?", [.text(name)]
                ).first
            else { return nil }
            try connection.execute(
                "UPDATE offline_values SET saved_at = ? WHERE name = ?",
                [.real(date.timeIntervalSince1970), .text(name)])
            try connection.setCacheStamp(stamp, to: date, validators: try connection.cacheValidators(stamp))
            return Cached(value: try APIClient.decode(Value.self, from: try row.data("json")), savedAt: date)
        }
    }

    /// The name the validators are kept under (``Connection/setCacheStamp(_:to:validators:)``).
    private var stamp: String { "offline_values:\(name)" }

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
