import Foundation
import Promises
import Services

/// Brings a collection's stored JSON to the model version it declares, once per open, before its
/// first read, write or sync: every queued change (its body, the base it was made from and the
/// API's copy of a conflict) and, for a collection kept as JSON, every row of its copy, in one
/// transaction, a page of rows at a time. Nothing is ever sent or shown in an older shape.
///
/// A change a step cannot bring over is left damaged with the reason (shown, discardable, never
/// sent). A row of the copy that cannot be brought over goes: the API's copy of it comes again
/// with the next listing, and a row changed here has its changes damaged with the reason. A file
/// at a newer version than the collection reads is refused whole (``OfflineModelError/newerData``).
enum OfflineModelUpgrade {
    /// Rows read at a time: memory stays bounded whatever the collection's size.
    static let pageSize = 500

    /// The gate a collection's tables and outbox wait for: once `ready` (their tables made), a read
    /// of the stored version, and a write transaction only when there is something to bring over.
    /// Nothing is waited for until the gate is first asked.
    static func gate(
        _ database: Database, after ready: [Promise<Void>], feature: String, rows: String?, version: Int,
        steps: [OfflineModelStep]
    ) -> OnceReady {
        OnceReady {
            // A declaration that cannot be right is refused before anything is read: a step too
            // many would otherwise be dropped silently, one too few leave a version unreached.
            guard version >= 1, steps.count == version - 1 else {
                return Promise(
                    error: OfflineModelError.stepsMissing(
                        collection: feature, version: version, steps: steps.count))
            }
            let tablesMade = when(fulfilled: ready)
            let read = tablesMade.then(on: .inline) { _ in database.read { try stored(feature, $0) } }
            return read.then(on: .inline) { stored -> Promise<Void> in
                guard stored != version else { return .value(()) }
                return database.write { try run(feature, rows: rows, version: version, steps: steps, $0) }
            }
        }
    }

    /// The version the file holds the collection at; 1 when none was recorded. A version below 1
    /// (no app writes one) or not a number is a damaged file: an error, and nothing is written.
    static func stored(_ feature: String, _ connection: Connection) throws -> Int {
        switch try connection.scalar("SELECT version FROM offline_models WHERE feature = ?", [.text(feature)])
        {
        case nil:
            return 1
        case .integer(let version)? where version >= 1 && version <= Int64(Int32.max):
            return Int(version)
        case let other?:
            let shown: String =
                switch other {
                case .integer(let value): "\(value)"
                case .null: "none"
                default: "not a number"
                }
            throw OfflineModelError.unreadable(
                "This device's file is damaged: it records the \(feature) model at version \(shown), "
                    + "which no version of the app writes. Nothing was read or written.")
        }
    }

    /// Brings `feature`'s changes (and the rows of collection `rows`, when given) from the stored
    /// version to `version`, in the caller's write transaction.
    static func run(
        _ feature: String, rows: String?, version: Int, steps: [OfflineModelStep], _ connection: Connection
    ) throws {
        let stored = try stored(feature, connection)  // again, in the write: another process may have
        guard stored != version else { return }
        guard stored < version else {
            throw OfflineModelError.newerData(collection: feature, stored: stored, reads: version)
        }
        guard steps.count == version - 1 else {
            throw OfflineModelError.stepsMissing(collection: feature, version: version, steps: steps.count)
        }
        let pending = Array(steps[(stored - 1)..<(version - 1)])
        try upgradeChanges(feature, pending, to: version, connection)
        if let rows { try upgradeRows(rows, feature, pending, to: version, connection) }
        try connection.execute(
            """
            INSERT INTO offline_models (feature, version) VALUES (?, ?)
            ON CONFLICT (feature) DO UPDATE SET version = excluded.version
            """, [.text(feature), .integer(Int64(version))])
    }

    private static func upgradeChanges(
        _ feature: String, _ steps: [OfflineModelStep], to version: Int, _ connection: Connection
    ) throws {
        var last: Int64 = 0
        while true {
            let page = try connection.query(
                """
                SELECT sequence, body, base, theirs FROM outbox
                WHERE feature = ? AND sequence > ? AND damage IS NULL ORDER BY sequence LIMIT ?
                """, [.text(feature), .integer(last), .integer(Int64(pageSize))])
            guard let end = page.last, case .integer(let sequence)? = end["sequence"] else { return }
            last = sequence
            for row in page {
                guard case .integer(let entry)? = row["sequence"] else { continue }
                do {
                    let (body, base, theirs) = (
                        try upgraded(row["body"], steps), try upgraded(row["base"], steps),
                        try upgraded(row["theirs"], steps, strict: false)
                    )
                    try connection.execute(
                        "UPDATE outbox SET body = ?, base = ?, theirs = ? WHERE sequence = ?",
                        [body, base, theirs, .integer(entry)])
                } catch {
                    try connection.execute(
                        "UPDATE outbox SET damage = ? WHERE sequence = ?",
                        [.text(reason(error, version)), .integer(entry)])
                }
            }
        }
    }

    private static func upgradeRows(
        _ collection: String, _ feature: String, _ steps: [OfflineModelStep], to version: Int,
        _ connection: Connection
    ) throws {
        var last: Int64 = 0
        while true {
            let page = try connection.query(
                """
                SELECT rowid, id, json, origin FROM offline_resources
                WHERE collection = ? AND rowid > ? ORDER BY rowid LIMIT ?
                """, [.text(collection), .integer(last), .integer(Int64(pageSize))])
            guard let end = page.last, case .integer(let rowid)? = end["rowid"] else { return }
            last = rowid
            for row in page {
                guard case .integer(let rowid)? = row["rowid"], case .text(let id)? = row["id"] else {
                    continue
                }
                do {
                    try connection.execute(
                        "UPDATE offline_resources SET json = ? WHERE rowid = ?",
                        [try upgraded(row["json"], steps), .integer(rowid)])
                } catch {
                    try connection.execute("DELETE FROM offline_resources WHERE rowid = ?", [.integer(rowid)])
                    try connection.execute(
                        "UPDATE outbox SET damage = ? WHERE feature = ? AND local_id = ? AND damage IS NULL",
                        [.text(reason(error, version)), .text(feature), .text(id)])
                }
            }
        }
    }

    /// A JSON column brought over: `NULL` stays `NULL`; an object goes through every step. Not an
    /// object: an error, or, not `strict` (the API's copy of a conflict, which may be any answer),
    /// left as it is.
    private static func upgraded(_ value: SQLValue?, _ steps: [OfflineModelStep], strict: Bool = true) throws
        -> SQLValue
    {
        let data: Data
        switch value {
        case .blob(let bytes)?: data = bytes
        case .text(let text)?: data = Data(text.utf8)
        default: return .null
        }
        guard var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            if strict { throw OfflineModelError.unreadable("it is not a JSON object") }
            return .blob(data)
        }
        for step in steps { try step.apply(&object) }
        return .blob(try JSONSerialization.data(withJSONObject: object))
    }

    private static func reason(_ error: any Error, _ version: Int) -> String {
        "it could not be brought to model version \(version): \((error as? OfflineModelError)?.description ?? "\(error)")"
    }
}
