public import Foundation
public import Promises
public import Services

/// A bound, in bytes, on the copy of the API's resources a database keeps for the collections
/// made with a name (``OfflineCollection/init(database:collection:client:reachability:makeID:now:)``,
/// which share one table): over it, the rows used longest ago (saved from the API, or read on their
/// own with ``OfflineCollection/fetch(id:)``) go first.
///
/// Nothing that waits is ever let go of: a row changed here (created, edited or deleted and not
/// confirmed yet), a row a waiting change or a conflict is about, a row a waiting change's body
/// names (a child's parent), and a row the user pinned (``OfflineCollection/pin(id:)``). When
/// those alone are over the budget, everything that waits is kept and the usage says so
/// (``StorageUsage/overBudget``). A row let go of is fetched again by the next listing or
/// ``OfflineCollection/fetch(id:)`` online; offline, reading it says there is nothing to show
/// yet (`ServiceRequestError/noData`), as for a row never fetched. A collection that lost rows
/// is listed whole the next time: the validators of its last listing go with them, so a
/// `304 Not Modified` cannot confirm a copy that is no longer whole.
///
/// ```swift
/// let budget = StorageBudget(database: database, bytes: 50_000_000)
/// let enforcing = budget.enforcing()   // after every change of the copy, in any process
/// ```
///
/// A feature's own tables (an ``OfflineStorage`` of its own) are bounded too when they are a
/// ``BudgetedStorage`` the budget is given (`covering:`).
public struct StorageBudget: Sendable {
    /// The most bytes the copy's rows may take.
    public let bytes: Int
    let tables: FeatureDatabase
    /// The features' own tables counted and evicted beside the shared JSON table.
    let storages: [any BudgetedStorage]
    /// The folder of kept files counted and evicted beside the rows (``including(_:)``).
    var files: KeptFiles?

    /// Makes the budget of `database`'s copy.
    ///
    /// - Parameters:
    ///   - database: The app's database.
    ///   - bytes: The most the copy's rows may take, in bytes (see ``StorageUsage`` for what is
    ///     counted); 0 or less keeps only what waits.
    ///   - storages: Tables of features' own on `database` to bound as well (a
    ///     ``BudgetedStorage`` each); the collections sharing the JSON table are always bounded.
    public init(database: Database, bytes: Int, covering storages: [any BudgetedStorage] = []) {
        self.bytes = max(0, bytes)
        self.storages = storages
        let outbox = FeatureDatabase(database, schema: "outbox", migrations: Outbox.migrations)
        tables = FeatureDatabase(
            database, schema: "offline_resources", migrations: OfflineResourcesTable.migrations,
            waitingFor: [outbox.ready])
    }

    /// The same budget over the files of `files` as well: downloaded files and uploaded ones are
    /// let go of, those read longest ago first (``OfflineAttachments/file(for:)`` fetches one
    /// again); a file whose upload is not complete never is. Files come in without a database
    /// write (a download): ``enforcing(on:_:)`` weighs them at the next change of the copy.
    ///
    /// - Parameter files: The folder of the kept files, such as ``OfflineAttachments/files``.
    /// - Returns: The budget over the copy and the files.
    public func including(_ files: KeptFiles) -> StorageBudget {
        var budget = self
        budget.files = files
        return budget
    }

    /// What the copy takes now, against the budget.
    ///
    /// - Returns: A promise of the usage; rejected with `DatabaseError` when the file cannot be read.
    public func usage() -> Promise<StorageUsage> {
        let (bytes, storages, files) = (bytes, storages, files)
        return tables.read { connection in
            let eviction = try Eviction(connection)
            let rows = try Eviction.rows(connection, storages, files)
            return StorageUsage(
                bytes: rows.reduce(0) { $0 + $1.size },
                keptBytes: rows.reduce(0) { $0 + (eviction.keeps($1) ? $1.size : 0) }, budget: bytes,
                evicted: 0, fileBytes: Eviction.fileBytes(rows))
        }
    }

    /// One eviction pass: over the budget, the rows saved longest ago are let go of, in one
    /// transaction, until the copy fits or only what must be kept is left.
    ///
    /// - Returns: A promise of the usage after the pass; rejected with `DatabaseError` when the
    ///   file cannot be written (nothing is let go of then).
    public func enforce() -> Promise<StorageUsage> {
        let (bytes, storages, files) = (bytes, storages, files)
        return tables.write { try Eviction.run(budget: bytes, covering: storages, files: files, in: $0) }
    }

    /// Keeps the budget from now on: a pass after every change of the copy, by this process or
    /// another, once it is over the budget (within the budget, a change costs one sum). With
    /// files included, a file downloaded again through this `Database`
    /// (``OfflineAttachments/file(for:)``) counts as a change; one downloaded by another process
    /// is weighed at the next commit.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `report` runs.
    ///   - report: Gets the usage after each pass that let go of rows or could not meet the
    ///     budget, or the error of one that failed.
    /// - Returns: The observation; the budget is kept until it is cancelled or released.
    public func enforcing(
        on dispatcher: any Dispatcher = DispatchQueue.global(),
        _ report: @escaping @Sendable (Result<StorageUsage, any Error>) -> Void = { _ in }
    ) -> ObservationHandle {
        let budget = self
        let watched: @Sendable (Connection) throws -> [Int] = { connection in
            // The bytes, and what may keep rows (changes waiting, pins), not whether the copy is
            // over: a pass that cannot meet the budget leaves these as they were and is not run
            // again until they change; a change sent or a pin let go of runs one.
            [try Eviction.usedBytes(connection, budget.storages, budget.files)]
                + (try Eviction.keepers(connection))
        }
        let enforce: @Sendable () -> Void = {
            budget.enforce().done(on: dispatcher) { usage in
                if usage.evicted > 0 || !usage.isWithinBudget { report(.success(usage)) }
            }.catch(on: dispatcher, policy: .allErrors) { report(.failure($0)) }
        }
        return tables.database.observe(
            tables: storages.reduce(
                Set(
                    ["offline_resources", "outbox", "offline_pins"]
                        + (files == nil ? [] : [AttachmentsTable.name]))
            ) { $0.union($1.observedTables) },
            on: dispatcher, read: watched
        ) { watched in
            switch watched {
            case .failure(let error): report(.failure(error))
            case .success(let watched) where watched.first ?? 0 > budget.bytes: enforce()
            case .success: break
            }
        }
    }
}
