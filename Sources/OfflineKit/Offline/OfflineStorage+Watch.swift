public import Promises
public import Services

/// A storage as a screen shows it: the snapshot every observation of a collection reads, for the
/// collection (``OfflineCollection/observe(on:_:)``) and for a feature's own store on the same
/// tables, which reads its rows with their sync states without a client.
extension OfflineStorage {
    /// The resources shown with their sync states, the conflicts, the outbox's counts and the
    /// copy's date, read in the caller's transaction: one read, one snapshot.
    ///
    /// - Parameter connection: The connection of the transaction to read in.
    /// - Returns: The snapshot.
    /// - Throws: The storage's or the outbox's read error.
    public func snapshot(in connection: Connection) throws -> OfflineSnapshot<Resource> {
        let entries = try OutboxTable.entries(outbox.feature, nil, connection)
        let status = OutboxStatus(entries: entries, changedHere: try idsChangedHere(in: connection))
        let items = try resources(in: connection).map {
            OfflineItem(value: $0, state: status.state(of: $0.id ?? ""))
        }
        return OfflineSnapshot(
            items: items, status: status, conflicts: entries.compactMap(OfflineConflict.init),
            savedAt: try copySavedAt(in: connection))
    }

    /// Observes the snapshot: `onChange` gets it at once, then after every commit that changes it,
    /// in this process or another writing the same file; an equal snapshot is not delivered twice.
    /// See `Database/observe(tables:on:read:onChange:)`.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets each snapshot, or why it could not be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observe(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OfflineSnapshot<Resource>, ServiceRequestError>) -> Void
    ) -> ObservationHandle where Resource: Equatable {
        let storage = self
        return observe(on: dispatcher, reading: { try storage.snapshot(in: $0) }, onChange)
    }

    /// Observes a feature's own read of the storage's tables (the first page of a long list read
    /// through the feature's index, say), with the rules of ``observe(on:_:)``: `read` runs at
    /// once, then after every commit to the storage's tables, the outbox or the copy's date, and
    /// an equal value is not delivered twice. A screen that shows a page watches the page, so a
    /// copy of any size costs one page a change.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - read: Reads the value in a read transaction; it must not keep the connection.
    ///   - onChange: Gets each value, or why it could not be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observe<Value: Equatable & Sendable>(
        on dispatcher: any Dispatcher, reading read: @escaping @Sendable (Connection) throws -> Value,
        _ onChange: @escaping @Sendable (Result<Value, ServiceRequestError>) -> Void
    ) -> ObservationHandle {
        // The storage's tables are made on the database's queue before any read of it (see
        // `FeatureDatabase`), and this observation's reads run on that queue.
        tables.database.observe(tables: snapshotTables, on: dispatcher, read: read) { result in
            onChange(result.mapError { ServiceRequestError($0) })
        }
    }

    /// The tables a snapshot reads: the storage's, the outbox and the copy's date; every table
    /// when the storage does not name its own.
    var snapshotTables: Set<String> {
        observedTables.isEmpty ? [] : observedTables.union(["outbox", "cache_stamps"])
    }
}
