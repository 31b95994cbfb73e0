import Foundation
import Promises
import Services

/// The schema the database tests use.
enum TestSchema {
    static let v1 = Migration(
        version: 1,
        sql: "CREATE TABLE songs (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE)")
    static let v2 = Migration(version: 2, sql: "ALTER TABLE songs ADD COLUMN artist TEXT")
}

/// A cache of a list of strings in a database table, as a feature service would write one.
struct StringsCache: OfflineCache {
    let database: Database

    func save(_ value: [String], at date: Date) -> Promise<Void> {
        database.write { connection in
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS strings (position INTEGER PRIMARY KEY, value TEXT NOT NULL)")
            try connection.execute("DELETE FROM strings")
            for (position, string) in value.enumerated() {
                try connection.execute(
                    "INSERT INTO strings (position, value) VALUES (?, ?)",
                    [SQLValue(position), .text(string)])
            }
            try connection.setCacheStamp("strings", to: date)
        }
    }

    func load() -> Promise<Cached<[String]>?> {
        database.read { connection in
            guard let savedAt = try connection.cacheStamp("strings") else { return nil }
            let rows = try connection.query("SELECT value FROM strings ORDER BY position")
            return Cached(value: try rows.map { try $0.string("value") }, savedAt: savedAt)
        }
    }
}

/// A cache whose writes always fail, as with a full disk.
struct FailingWritesCache: OfflineCache {
    func save(_ value: [String], at date: Date) -> Promise<Void> {
        Promise(error: ServiceRequestError.storageFailed(reason: "disk full"))
    }

    func load() -> Promise<Cached<[String]>?> {
        .value(nil)
    }
}
