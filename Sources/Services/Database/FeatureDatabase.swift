public import Promises

/// One feature's part of the app's database: its own tables, brought up to date once, and every
/// read and write it makes run after that.
///
/// Features share one file and each owns its tables: make one `FeatureDatabase` per feature, with
/// a schema name of its own, instead of listing every feature's tables in
/// ``Database/init(at:migrations:busyTimeout:)``. Work issued through it waits for the migration
/// and fails with the migration's error if the tables could not be made, rather than with a
/// missing table.
///
/// ```swift
/// let recipes = FeatureDatabase(database, schema: "recipes", migrations: [
///     Migration(version: 1, sql: "CREATE TABLE recipes (id TEXT PRIMARY KEY, name TEXT NOT NULL)")
/// ])
/// recipes.write { try $0.execute("INSERT INTO recipes (id, name) VALUES (?, ?)", ["1", "Soup"]) }
/// ```
public struct FeatureDatabase: Sendable {
    /// The app's database.
    public let database: Database
    /// The name the feature's schema version is kept under.
    public let schema: String
    /// Fulfilled once the feature's tables are up to date (and whatever it waits for is ready);
    /// rejected with why they could not be made.
    public let ready: Promise<Void>
    /// What runs once before the feature's first read or write, when something does (an offline
    /// collection's model upgrade: `OfflineCollection/model(version:steps:)`); its work waits for
    /// ``ready`` itself, so that its one promise is all a read or write waits for.
    package var gate: OnceReady?

    /// When the feature's work may run: the ``gate``'s promise, else ``ready``.
    package var opened: Promise<Void> {
        gate?.promise() ?? ready
    }

    /// Brings the feature's tables up to date, at once and in the background.
    ///
    /// - Parameters:
    ///   - database: The app's database.
    ///   - schema: A name of the feature's own, such as `"recipes"`.
    ///   - migrations: The steps of the feature's schema, in version order.
    ///   - others: What must be ready too before the feature's work runs, such as the
    ///     `Outbox/ready` of an outbox it writes to.
    public init(
        _ database: Database, schema: String, migrations: [Migration], waitingFor others: [Promise<Void>] = []
    ) {
        self.database = database
        self.schema = schema
        let migrated = database.migrate(schema: schema, migrations)
        ready = others.isEmpty ? migrated : when(fulfilled: [migrated] + others).asVoid()
    }

    /// Runs `body` on the database's queue once the tables are ready (see ``Database/read(_:)``).
    ///
    /// - Parameter body: Reads through the connection.
    /// - Returns: A promise of what `body` returns, or the migration's error.
    public func read<Value: Sendable>(
        _ body: @escaping @Sendable (Connection) throws -> Value
    ) -> Promise<Value> {
        let database = database
        return opened.then(on: .inline) { database.read(body) }
    }

    /// Runs `body` in one transaction once the tables are ready (see ``Database/write(_:)``).
    ///
    /// - Parameter body: Writes through the connection; throwing rolls everything back.
    /// - Returns: A promise of what `body` returns, or the migration's error.
    public func write<Value: Sendable>(
        _ body: @escaping @Sendable (Connection) throws -> Value
    ) -> Promise<Value> {
        let database = database
        return opened.then(on: .inline) { database.write(body) }
    }
}
