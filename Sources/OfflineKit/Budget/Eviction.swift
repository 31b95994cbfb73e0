import Foundation
import Services

/// One eviction pass of a ``StorageBudget``, in the transaction it runs in: what must be kept,
/// read once, then the API's rows saved longest ago let go of until the copy fits.
///
/// Invariant: a row is let go of only when it came from the API (`origin = 'api'`), no outbox
/// entry of its collection is about it (under the id made here or the API's), it is not pinned,
/// and no waiting change's body names its identifier. Each check reads what this transaction
/// sees, so a change queued in the same commit is seen.
struct Eviction {
    /// A row of a collection.
    struct Key: Hashable {
        let collection: String
        let id: String
    }

    /// Rows an outbox entry is about, and pinned rows.
    private let kept: Set<Key>
    /// Identifiers a waiting change's body names (its parent, in whatever collection).
    private let named: Set<String>

    /// Reads what must be kept.
    init(_ connection: Connection) throws {
        let rows = { (sql: String) in
            try connection.query(sql) {
                Key(collection: try $0.string("collection"), id: try $0.string("id"))
            }
        }
        kept = Set(
            try rows("SELECT feature AS collection, local_id AS id FROM outbox")
                + rows(
                    """
                    SELECT i.feature AS collection, i.api_id AS id FROM outbox_identifiers i
                    JOIN outbox o ON o.feature = i.feature AND o.local_id = i.local_id
                    """)
                + rows("SELECT collection, id FROM offline_pins"))
        var named = Set<String>()
        for body in try connection.query(
            "SELECT body FROM outbox WHERE body IS NOT NULL", map: { try $0.data("body") })
        {
            Self.collectNames(
                in: try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]), into: &named)
        }
        self.named = named
    }

    /// Whether the API's row `key` must stay.
    func keeps(_ key: Key) -> Bool {
        kept.contains(key) || named.contains(key.id)
    }

    /// The bytes the copy's rows take (see ``StorageUsage``).
    static func usedBytes(_ connection: Connection) throws -> Int {
        guard
            case .integer(let bytes)? = try connection.scalar(
                "SELECT COALESCE(SUM(length(json) + length(id)), 0) FROM offline_resources")
        else { return 0 }
        return Int(bytes)
    }

    /// How many changes wait and rows are pinned: what keeps rows, counted without reading them.
    static func keepers(_ connection: Connection) throws -> [Int] {
        try ["SELECT COUNT(*) FROM outbox", "SELECT COUNT(*) FROM offline_pins"].map { sql in
            guard case .integer(let count)? = try connection.scalar(sql) else { return 0 }
            return Int(count)
        }
    }

    /// The bytes no pass may take: rows changed here, and the API's rows that must stay.
    func keptBytes(_ connection: Connection) throws -> Int {
        try Self.rows(connection).reduce(0) { sum, row in
            sum + (row.origin == OfflineOrigin.api.rawValue && !keeps(row.key) ? 0 : row.size)
        }
    }

    /// The copy's rows, saved longest ago first.
    private static func rows(_ connection: Connection) throws -> [(
        rowid: Int64, key: Key, origin: String, size: Int
    )] {
        try connection.query(
            """
            SELECT rowid, collection, id, origin, length(json) + length(id) AS size
            FROM offline_resources INDEXED BY offline_resources_by_use ORDER BY used_at, rowid
            """
        ) { row in
            (
                rowid: Int64(try row.int("rowid")),
                key: Key(collection: try row.string("collection"), id: try row.string("id")),
                origin: try row.string("origin"), size: try row.int("size")
            )
        }
    }

    /// Lets go of the API's rows saved longest ago until the copy takes at most `budget` bytes.
    static func run(budget: Int, in connection: Connection) throws -> StorageUsage {
        var used = try usedBytes(connection)
        let eviction = try Eviction(connection)
        var (victims, keptBytes, collections) = ([Int64](), 0, Set<String>())
        for row in try rows(connection) {
            let evictable = row.origin == OfflineOrigin.api.rawValue && !eviction.keeps(row.key)
            if !evictable {
                keptBytes += row.size
            } else if used > budget {
                victims.append(row.rowid)
                collections.insert(row.key.collection)
                used -= row.size
            }
        }
        if !victims.isEmpty {
            let list = String(decoding: try JSONEncoder().encode(victims), as: UTF8.self)
            try connection.execute(
                "DELETE FROM offline_resources WHERE rowid IN (SELECT value FROM json_each(?))", [.text(list)]
            )
            // A listing that no longer is whole here must not be confirmed by a `304`.
            for collection in collections.sorted() {
                try connection.execute(
                    "UPDATE cache_stamps SET validators = NULL WHERE name = ?",
                    [.text(OfflineResourcesTable.copyStamp(collection))])
            }
        }
        return StorageUsage(bytes: used, keptBytes: keptBytes, budget: budget, evicted: victims.count)
    }

    /// Adds every string and number in `json` to `names` (a number as it is written: `42`).
    private static func collectNames(in json: Any?, into names: inout Set<String>) {
        switch json {
        case let text as String: names.insert(text)
        case let number as NSNumber: names.insert(number.stringValue)
        case let array as [Any]: for element in array { collectNames(in: element, into: &names) }
        case let object as [String: Any]: for value in object.values { collectNames(in: value, into: &names) }
        default: break
        }
    }
}
