import CSQLite  // SQLite, on every platform: Package.swift says how
public import Foundation
public import Promises

/// The app's embedded SQLite database: one file (or memory), one connection, all work serialised
/// on a private queue so that it is safe from any thread, and every result a promise.
///
/// Opening applies the ``Migration``s the file has not seen yet, in one transaction with the
/// schema version (the `app` row of `schema_versions`, as every schema's), read under the write lock. A file written by a newer version is refused and left
/// unchanged. Files use WAL journaling, so a crash never leaves a half-written transaction.
public final class Database: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `connection` is the only mutable state (the SQLite handle and
    // its statement cache). After `init` returns it is only used inside blocks run on `queue`, a
    // serial queue, so no two threads ever use it at once (`suspend()` also calls
    // `sqlite3_interrupt` on its handle, which SQLite allows from any thread); the other stored
    // properties are `let` values that are `Sendable` (`observers` guards its own state).
    let connection: Connection
    let queue: DispatchQueue
    /// The observed reads (see `observe(tables:on:read:onChange:)`).
    let observers = DatabaseObservers()
    /// The writes waiting to be committed together (`Database+GroupCommit.swift`).
    let groups = Locked(WriteGroups())
    /// Whether the database is suspended, and the migrations waiting for it to be resumed
    /// (`Database+Suspension.swift`).
    let suspension = Locked(Suspension())

    /// The file the database lives in, or `:memory:`.
    public let path: String
    /// Which file `path` named when it was opened, to tell when it is deleted or replaced.
    let fileIdentity: DatabaseFile.Identity?

    /// Opens the database in `url`, creating the file (readable by its owner only) and its folders
    /// if they are missing, and applies `migrations`.
    ///
    /// - Parameters:
    ///   - url: The database file.
    ///   - migrations: The schema, step by step.
    ///   - busyTimeout: How long a write waits for another connection's lock before failing with
    ///     ``DatabaseError/Kind/busy``.
    /// - Throws: ``DatabaseError``: the file is not a database, is read-only, locked, or newer.
    public convenience init(at url: URL, migrations: [Migration] = [], busyTimeout: Double = 5) throws {
        let file = try DatabaseFile(preparing: url)
        do {
            try self.init(path: url.path, migrations: migrations, busyTimeout: busyTimeout, journal: "WAL")
        } catch {
            file.cleanUpAfterFailedOpen()
            throw error
        }
    }

    /// Opens a private database in memory, for tests and previews, and applies `migrations`.
    ///
    /// - Parameter migrations: The schema, step by step.
    /// - Returns: An empty database with the schema.
    /// - Throws: ``DatabaseError`` when a migration fails.
    public static func inMemory(migrations: [Migration] = []) throws -> Database {
        try Database(path: ":memory:", migrations: migrations, busyTimeout: 0, journal: "MEMORY")
    }

    /// Opens and checks the connection; it is closed again, before the error reaches the caller,
    /// when anything fails.
    private init(path: String, migrations: [Migration], busyTimeout: Double, journal: String) throws {
        let connection = try Connection(
            path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
        sqlite3_busy_timeout(connection.handle, Int32(max(0, busyTimeout) * 1000))
        // Reading the schema is what tells a database from any other file.
        _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
        if sqlite3_db_readonly(connection.handle, "main") == 1 {
            throw DatabaseError(kind: .readOnly, message: "opened read-only", path: path)
        }
        try DatabaseOwnership.claim(connection)
        try Self.setJournalMode(journal, on: connection, waitingUpTo: busyTimeout)
        try connection.execute("PRAGMA foreign_keys = ON")
        // The file itself is read and written through system calls, never memory-mapped: a file
        // that cannot be written or read then fails a call, which is an error, where a mapped page
        // would stop the process with SIGBUS. (The WAL's shared-memory index is mapped whatever
        // the setting: SQLite has no other way for two processes to share it; the README says so.)
        _ = try connection.query("PRAGMA mmap_size = 0")
        try Self.migrate(connection, to: migrations)
        self.connection = connection
        queue = DispatchQueue(label: "Database \(path)")
        self.path = path
        fileIdentity = path == ":memory:" ? nil : DatabaseFile.identity(of: path)
    }

    /// Runs `body` on the database's queue, for reads.
    ///
    /// - Parameter body: Reads through the connection; it must not keep it.
    /// - Returns: A promise of what `body` returns, or rejected with what it throws.
    public func read<Value: Sendable>(
        _ body: @escaping @Sendable (Connection) throws -> Value
    ) -> Promise<Value> {
        Promise { seal in
            submit {
                if let suspended = self.refusedWhileSuspended() { return seal.reject(suspended) }
                seal.resolve(Result { try body(self.connection) })
            }
        }
    }

    /// Runs `body` on the database's queue in one transaction: all of its changes are kept if it
    /// returns, none if it throws. Writes that arrive together share one commit (a group commit):
    /// the promise settles once the commit that holds this write is durable. Once it committed,
    /// the observed reads of the tables it changed are read again (see
    /// ``observe(tables:on:read:onChange:)``).
    ///
    /// - Parameter body: Writes through the connection; it must not keep it.
    /// - Returns: A promise of what `body` returns, or rejected with what it throws.
    public func write<Value: Sendable>(
        _ body: @escaping @Sendable (Connection) throws -> Value
    ) -> Promise<Value> {
        Promise { seal in
            enqueue(
                GroupedWrite(
                    run: { connection, alone in
                        connection.countWrite()
                        let result = Result {
                            try alone ? body(connection) : connection.savepoint { try body(connection) }
                        }
                        let settle: GroupedWrite.Settle = { commitFailure in
                            if let commitFailure, case .success = result {
                                seal.reject(commitFailure)
                            } else {
                                seal.resolve(result)
                            }
                        }
                        if case .failure = result { return (settle, true) }
                        return (settle, false)
                    },
                    reject: { seal.reject($0) }))
        }
    }

    /// Brings the tables of one feature (`schema`) up to date, apart from the app's own schema, so
    /// that several features can keep their tables in one file.
    ///
    /// The steps the file has not seen run in one write transaction with the version change, the
    /// version read under the write lock, so that two processes opening a new file at once apply
    /// each step once; the version is kept in the `schema_versions` table. A file whose `schema` is newer than the
    /// newest step is refused with ``DatabaseError/Kind/newerSchema(found:known:)``, unchanged.
    ///
    /// - Parameters:
    ///   - schema: The feature's name, such as `melodies`.
    ///   - migrations: The feature's steps.
    /// - Returns: A promise fulfilled once the tables are up to date.
    public func migrate(schema: String, _ migrations: [Migration]) -> Promise<Void> {
        Promise { seal in
            @Sendable func run() {
                // Suspended: the migration waits for `resume()` rather than fail, so a feature
                // made while the app is suspended (a background launch) is ready once it resumes.
                guard !self.suspension.withLock({ $0.park(run) }) else { return }
                seal.resolve(Result { try self.connection.migrate(schema: schema, migrations) })
            }
            submit { run() }
        }
    }

    /// The version of the app's schema in the file: the newest of the `migrations` it was opened
    /// with that has been applied.
    public var schemaVersion: Promise<Int> {
        read { try $0.schemaVersion(Connection.appSchema) ?? 0 }
    }

    /// Sets the journal mode. Switching a new file to WAL needs the file to itself, and SQLite
    /// answers "busy" at once, without waiting, when another process opening the same new file holds
    /// it meanwhile (waiting could deadlock them): so this tries again, every few milliseconds, until
    /// `timeout` has passed, as the busy timeout does for every other statement.
    private static func setJournalMode(
        _ journal: String, on connection: Connection, waitingUpTo timeout: Double
    )
        throws
    {
        let sql = journal == "WAL" ? "PRAGMA journal_mode = WAL" : "PRAGMA journal_mode = MEMORY"
        let deadline = Date().addingTimeInterval(max(0, timeout))
        while true {
            do {
                _ = try connection.query(sql)
                return
            } catch let error as DatabaseError where error.kind == .busy && Date() < deadline {
                usleep(5_000)  // another process is switching the same new file: give it the file
            }
        }
    }

    /// The app's steps, then the library's own tables: each a schema of `schema_versions`.
    private static func migrate(_ connection: Connection, to migrations: [Migration]) throws {
        try connection.migrate(schema: Connection.appSchema, migrations) {
            guard case .integer(let version) = try connection.scalar("PRAGMA user_version") else { return 0 }
            return try Int(database: version, column: "user_version")
        }
        try connection.migrate(
            schema: Connection.cacheStampsSchema.name, Connection.cacheStampsSchema.migrations)
    }
}
