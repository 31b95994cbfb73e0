import Foundation
public import Promises
public import Services

/// What a collection holds and why a change has not arrived: its outbox's snapshot with its copy.
extension OfflineCollection {
    /// The outbox's snapshot (``Outbox/diagnostics()``) with the copy's rows and bytes, and how it
    /// was last brought up to date (``OutboxDiagnostics/Copy``), read in one transaction.
    ///
    /// - Returns: A promise of the snapshot; rejected with `ServiceRequestError` when the file
    ///   cannot be read.
    public func diagnostics() -> Promise<OutboxDiagnostics> {
        diagnostics(includingBodies: false)
    }

    /// ``diagnostics()`` with each change's body when `includingBodies`
    /// (``Outbox/diagnostics(includingBodies:)``).
    ///
    /// - Parameter includingBodies: Whether to read the bodies too.
    /// - Returns: A promise of the snapshot; rejected with `ServiceRequestError` when the file
    ///   cannot be read.
    public func diagnostics(includingBodies: Bool) -> Promise<OutboxDiagnostics> {
        let storage = storage
        return storage.tables.read { try storage.diagnostics(in: $0, bodies: includingBodies) }
            .recover(on: .inline) { throw ServiceRequestError($0) }
    }

    /// Observes ``diagnostics()``: `onChange` gets it at once, then after every commit that changes
    /// it, in this process or another (a change queued or sent, a claim taken, a refresh); an
    /// equal snapshot is not delivered twice. For a screen that shows where the sync stands.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets each snapshot, or why it could not be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observeDiagnostics(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OutboxDiagnostics, ServiceRequestError>) -> Void
    ) -> ObservationHandle {
        let storage = storage
        let tables =
            storage.snapshotTables.isEmpty
            ? [] : storage.snapshotTables.union(OfflineStorageDiagnostics.tables)
        let read: @Sendable (Connection) throws -> OutboxDiagnostics = { try storage.diagnostics(in: $0) }
        return storage.tables.database.observe(tables: tables, on: dispatcher, read: read) { result in
            onChange(result.mapError { ServiceRequestError($0) })
        }
    }
}

/// The tables a diagnostics snapshot reads besides the storage's own.
enum OfflineStorageDiagnostics {
    static let tables: Set<String> = [
        "outbox", "outbox_identifiers", "outbox_claims", "offline_models", "offline_owners", "cache_stamps",
    ]
}

extension OfflineStorage {
    /// The outbox's snapshot with the copy, in the caller's transaction.
    func diagnostics(in connection: Connection, bodies: Bool = false) throws -> OutboxDiagnostics {
        var snapshot = try outbox.diagnostics(in: connection, bodies: bodies)
        if let references = (self as? AnyOfflineStorage<Resource>)?.references {
            let parents = try waitingParents(references, connection)
            for index in snapshot.changes.indices {
                snapshot.changes[index].waitingFor = parents[snapshot.changes[index].sequence]
            }
        }
        let (rows, bytes) = try copySize(in: connection)
        let counts = try connection.cacheStampCounts(copyStamp)
        snapshot.copy = OutboxDiagnostics.Copy(
            rows: rows, bytes: bytes, refreshedAt: try connection.cacheStamp(copyStamp),
            feedToken: try connection.cacheValidators(copyStamp)?.syncToken, listings: counts[.saved] ?? 0,
            notModified: counts[.confirmed] ?? 0, feedUpdates: counts[.updated] ?? 0)
        return snapshot
    }

    /// The parent each waiting change of this collection waits for (`collection/id`), by sequence:
    /// read with the bodies, for a collection that declared references.
    private func waitingParents(_ references: OfflineReferences<Resource>, _ connection: Connection) throws
        -> [Int64: String]
    {
        var parents = [Int64: String]()
        for entry in try OutboxTable.entries(outbox.feature, nil, connection) {
            guard let parent = try references.waitingParent(of: entry, connection) else { continue }
            parents[entry.sequence] = "\(parent.collection)/\(parent.id)"
        }
        return parents
    }

    /// The copy's rows and their bytes, as a ``StorageBudget`` counts them: the shared table's
    /// rows of this collection, or a ``BudgetedStorage``'s own; (0, 0) for a storage that is
    /// neither.
    func copySize(in connection: Connection) throws -> (rows: Int, bytes: Int) {
        if let any = self as? AnyOfflineStorage<Resource> { return try any.sized(connection) }
        if let shared = self as? JSONOfflineStorage<Resource> {
            // sql-constant: the measure of a row, an expression of its columns.
            let sql = "SELECT COUNT(*) AS n, COALESCE(SUM(\(OfflineResourcesTable.rowBytes)), 0) AS bytes"
            return try connection.query(
                sql + " FROM offline_resources WHERE collection = ?", [.text(shared.collection)]
            ) { (try $0.int("n"), try $0.int("bytes")) }.first ?? (0, 0)
        }
        guard let own = self as? any BudgetedStorage else { return (0, 0) }
        let rows = try own.budgetedRows(in: connection)
        return (rows.count, rows.reduce(0) { $0 + $1.bytes })
    }
}
