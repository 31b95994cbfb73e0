import Foundation
import Services

/// One eviction pass of a ``StorageBudget``, in the transaction it runs in: what must be kept,
/// read once, then the API's rows and the kept files used longest ago let go of until the copy fits.
///
/// Invariant: a row is let go of only when it came from the API (not changed here), no outbox
/// entry of its collection is about it (under the id made here or the API's), it is not pinned,
/// and no waiting change's body names its identifier; a file only when no attachment whose upload
/// is not complete keeps it. Each check reads what this transaction sees, so a change queued in
/// the same commit is seen. A file is removed before the transaction commits: an attachment of the
/// same bytes written after it finds the file gone and keeps its copy again
/// (``OfflineAttachments/attach(fileAt:name:contentType:)``).
struct Eviction {
    /// A row of a collection.
    struct Key: Hashable {
        let collection: String
        let id: String
    }

    /// A row of any copy the budget covers, and where it is kept.
    struct Row {
        let key: Key
        let size: Int
        let savedAt: Double
        let changedHere: Bool
        let place: Place
    }

    /// The shared JSON table's row, a row of the `n`th storage of its own, or a kept file.
    enum Place {
        case shared(rowid: Int64)
        case own(Int)
        case file
    }

    /// Rows an outbox entry is about, and pinned rows.
    private let kept: Set<Key>
    /// Identifiers a waiting change's body names (its parent, in whatever collection).
    private let named: Set<String>
    /// The digests of files whose upload is not complete.
    private let uploading: Set<String>

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
        uploading = try AttachmentsTable.notUploaded(feature: nil, connection)
    }

    /// Whether the row must stay.
    func keeps(_ row: Row) -> Bool {
        if case .file = row.place { return uploading.contains(row.key.id) }
        return row.changedHere || kept.contains(row.key) || named.contains(row.key.id)
    }

    /// How many changes wait and rows are pinned: what keeps rows, counted without reading them.
    static func keepers(_ connection: Connection) throws -> [Int] {
        try ["SELECT COUNT(*) FROM outbox", "SELECT COUNT(*) FROM offline_pins"].map { sql in
            guard case .integer(let count)? = try connection.scalar(sql) else { return 0 }
            return Int(count)
        }
    }

    /// The bytes the copy's rows and `files` take (see ``StorageUsage``).
    static func usedBytes(_ connection: Connection, _ storages: [any BudgetedStorage], _ files: KeptFiles?)
        throws -> Int
    {
        guard
            case .integer(let shared)? = try connection.scalar(
                // sql-constant: the measure of a row, an expression of its columns.
                "SELECT COALESCE(SUM(\(OfflineResourcesTable.rowBytes)), 0) FROM offline_resources")
        else { return 0 }
        let kept = files?.all().reduce(0) { $0 + Int($1.file.size) } ?? 0
        return try storages.reduce(Int(shared) + kept) { sum, storage in
            sum + (try storage.budgetedRows(in: connection).reduce(0) { $0 + $1.bytes })
        }
    }

    /// Every row and file the budget covers, used longest ago first (in the order each copy gives
    /// them, the shared table's first, then the storages', then the files, among those of one time).
    static func rows(_ connection: Connection, _ storages: [any BudgetedStorage], _ files: KeptFiles?) throws
        -> [Row]
    {
        let measured =
            // sql-constant: the measure of a row, an expression of its columns.
            "SELECT rowid, collection, id, origin, used_at, \(OfflineResourcesTable.rowBytes) AS size"
        let order = " FROM offline_resources INDEXED BY offline_resources_by_use ORDER BY used_at, rowid"
        var rows = try connection.query(measured + order) { row in
            Row(
                key: Key(collection: try row.string("collection"), id: try row.string("id")),
                size: try row.int("size"), savedAt: try row.double("used_at"),
                changedHere: try row.string("origin") != OfflineOrigin.api.rawValue,
                place: .shared(rowid: Int64(try row.int("rowid"))))
        }
        for (index, storage) in storages.enumerated() {
            rows += try storage.budgetedRows(in: connection).map { row in
                Row(
                    key: Key(collection: storage.collection, id: row.id), size: row.bytes,
                    savedAt: row.savedAt,
                    changedHere: row.changedHere, place: .own(index))
            }
        }
        rows += (files?.all() ?? []).map { listed in
            Row(
                key: Key(collection: "", id: listed.file.sha256), size: Int(listed.file.size),
                savedAt: listed.usedAt, changedHere: false, place: .file)
        }
        // `sorted` is stable: rows of one time keep the order they were listed in.
        return rows.sorted { $0.savedAt < $1.savedAt }
    }

    /// Lets go of the API's rows saved longest ago until the copy takes at most `budget` bytes.
    static func run(
        budget: Int, covering storages: [any BudgetedStorage], files: KeptFiles?, in connection: Connection
    ) throws -> StorageUsage {
        let eviction = try Eviction(connection)
        let rows = try rows(connection, storages, files)
        var used = rows.reduce(0) { $0 + $1.size }
        var (shared, own, keptBytes, evicted) = ([Int64](), [Int: [String]](), 0, 0)
        var gone = Set<String>()
        var fileBytes = Self.fileBytes(rows)
        var collections = Set<String>()
        for row in rows {
            if eviction.keeps(row) {
                keptBytes += row.size
            } else if used > budget {
                switch row.place {
                case .shared(let rowid):
                    shared.append(rowid)
                    collections.insert(row.key.collection)
                case .own(let index): own[index, default: []].append(row.key.id)
                case .file:
                    gone.insert(row.key.id)
                    fileBytes -= row.size
                }
                used -= row.size
                evicted += 1
            }
        }
        if !shared.isEmpty {
            let list = String(decoding: try JSONEncoder().encode(shared), as: UTF8.self)
            try connection.execute(
                "DELETE FROM offline_resources WHERE rowid IN (SELECT value FROM json_each(?))", [.text(list)]
            )
        }
        var stamps = Set(collections.map(OfflineResourcesTable.copyStamp))
        for (index, ids) in own {  // each storage on its own: their order changes nothing
            try storages[index].evict(ids, in: connection)
            stamps.insert(storages[index].copyStamp)
        }
        // A listing that no longer is whole here must not be confirmed by a `304`.
        for stamp in stamps.sorted() {
            try connection.execute("UPDATE cache_stamps SET validators = NULL WHERE name = ?", [.text(stamp)])
        }
        for sha256 in gone.sorted() { try files?.remove(sha256: sha256) }
        return StorageUsage(
            bytes: used, keptBytes: keptBytes, budget: budget, evicted: evicted,
            fileBytes: fileBytes)
    }

    /// The bytes of the files among `rows`.
    static func fileBytes(_ rows: [Row]) -> Int {
        rows.reduce(0) { sum, row in if case .file = row.place { sum + row.size } else { sum } }
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
