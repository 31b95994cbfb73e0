public import Foundation
public import Promises
public import Services

/// The melodies last fetched, kept in the app's database for offline use.
///
/// A table of its own rather than a `CodableCache`: one row per melody, keyed by its id, so that
/// a list that repeats an id is refused (and said to be unsaved) instead of stored, and the copy
/// can be queried.
public struct MelodyCache: OfflineCache {
    /// The steps of the `melodies` schema. The cache applies them itself, through
    /// `Database/migrate(schema:_:)`, when it is made; they are not for `Database(at:migrations:)`,
    /// which would make the tables a second time.
    static let migrations = [
        Migration(
            version: 1,
            sql: """
                CREATE TABLE melodies (
                    id INTEGER PRIMARY KEY,
                    position INTEGER NOT NULL,
                    title TEXT NOT NULL,
                    artist TEXT NOT NULL,
                    album TEXT NOT NULL,
                    duration_seconds INTEGER NOT NULL
                )
                """)
    ]

    private let tables: FeatureDatabase
    /// The name the list's date is kept under (`Connection.setCacheStamp(_:to:)`).
    private static let stamp = "melodies"

    /// Makes the cache and brings its table up to date.
    ///
    /// - Parameter database: The app's database.
    public init(database: Database) {
        tables = FeatureDatabase(database, schema: "melodies", migrations: Self.migrations)
    }

    /// Replaces the cached melodies, in one transaction.
    ///
    /// - Parameters:
    ///   - value: The melodies, in display order.
    ///   - date: When they were fetched.
    /// - Returns: A promise fulfilled once they are stored.
    public func save(_ value: [Melody], at date: Date) -> Promise<Void> {
        tables.write { connection in
            try connection.execute("DELETE FROM melodies")
            for (position, melody) in value.enumerated() {
                try connection.execute(
                    """
                    INSERT INTO melodies (id, position, title, artist, album, duration_seconds)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        SQLValue(melody.id), SQLValue(position), .text(melody.title),
                        .text(melody.artist),
                        .text(melody.album), SQLValue(melody.durationSeconds),
                    ])
            }
            try connection.setCacheStamp(Self.stamp, to: date)
        }
    }

    /// The cached melodies and when they were saved, or `nil` if none ever were.
    ///
    /// - Returns: A promise of the cached melodies.
    public func load() -> Promise<Cached<[Melody]>?> {
        tables.read(Self.read)
    }

    /// When the melodies were saved, or `nil` if none ever were, without reading them: for
    /// deciding whether to fill an empty cache.
    ///
    /// - Returns: A promise of the date.
    public func savedAt() -> Promise<Date?> {
        tables.read { try $0.cacheStamp(Self.stamp) }
    }

    /// The saved list and when it was saved, or `nil` when none was.
    @Sendable static func read(_ connection: Connection) throws -> Cached<[Melody]>? {
        guard let savedAt = try connection.cacheStamp(Self.stamp) else { return nil }
        let melodies = try connection.query(
            "SELECT id, title, artist, album, duration_seconds FROM melodies ORDER BY position"
        ) { row in
            Melody(
                id: try row.int("id"), title: try row.string("title"),
                artist: try row.string("artist"),
                album: try row.string("album"), durationSeconds: try row.int("duration_seconds"))
        }
        return Cached(value: melodies, savedAt: savedAt)
    }

    /// Observes the saved list: at once, then after every save, by this app or another process
    /// writing the same file (see `Database/observe(tables:on:read:onChange:)`).
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets the saved list (`nil` while none was saved), or why it cannot be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observe(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<Cached<[Melody]>?, any Error>) -> Void
    ) -> ObservationHandle {
        tables.database.observe(
            tables: ["melodies", "cache_stamps"], on: dispatcher, read: Self.read, onChange: onChange)
    }
}
