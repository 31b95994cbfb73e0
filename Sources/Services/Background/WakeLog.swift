import Foundation
public import Promises

/// What the app asked the system for in the background and what it got, kept in the database so
/// that the app (a support screen, `OutboxDiagnostics`) can tell "never asked" from "asked and
/// never woken" from "woken and expired": the newest ``keep`` entries.
public struct WakeLog: Sendable {
    /// How many entries are kept; older ones go as new ones come.
    public static let keep = 200
    let table: FeatureDatabase

    /// The log in `database`, its table made if the file has none.
    ///
    /// - Parameter database: The app's database.
    public init(database: Database) {
        table = FeatureDatabase(
            database, schema: "wake_log",
            migrations: [
                Migration(
                    version: 1,
                    sql: """
                        CREATE TABLE wake_log (
                            sequence INTEGER PRIMARY KEY, task TEXT NOT NULL, event TEXT NOT NULL,
                            at REAL NOT NULL, changes INTEGER, detail TEXT)
                        """)
            ])
    }

    /// Adds `entry`, and lets the oldest go past ``keep``.
    ///
    /// - Parameter entry: What happened.
    /// - Returns: A promise fulfilled once it is written.
    public func record(_ entry: WakeLogEntry) -> Promise<Void> {
        table.write { connection in
            try connection.execute(
                "INSERT INTO wake_log (task, event, at, changes, detail) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(entry.task), .text(entry.event.rawValue), .real(entry.at.timeIntervalSince1970),
                    entry.changes.map { .integer(Int64($0)) } ?? .null,
                    entry.detail.map(SQLValue.text) ?? .null,
                ])
            try connection.execute(
                "DELETE FROM wake_log WHERE sequence <= (SELECT max(sequence) FROM wake_log) - ?",
                [.integer(Int64(Self.keep))])
        }
    }

    /// The entries kept, oldest first; an entry whose event this version does not know is left out.
    ///
    /// - Returns: A promise of the entries.
    public func entries() -> Promise<[WakeLogEntry]> {
        table.read { connection in
            try connection.query("SELECT task, event, at, changes, detail FROM wake_log ORDER BY sequence") {
                row -> WakeLogEntry? in
                guard let event = WakeLogEntry.Event(rawValue: try row.string("event")) else { return nil }
                return WakeLogEntry(
                    task: try row.string("task"), event: event,
                    at: Date(timeIntervalSince1970: try row.double("at")),
                    changes: row["changes"].flatMap {
                        if case .integer(let count) = $0 { Int(count) } else { nil }
                    },
                    detail: try row.optionalString("detail"))
            }.compactMap { $0 }
        }
    }
}
