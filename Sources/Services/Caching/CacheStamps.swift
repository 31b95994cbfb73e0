public import Foundation

/// The stamps live in the library's own `cache_stamps` table, made when the database is opened
/// (``Connection/cacheStampsSchema``), outside the app's migrations, so any schema can use them.
extension Connection {
    /// Records when the cache called `name` was last written. Call it inside the write that
    /// stores the data, so that both are kept or neither is.
    ///
    /// - Parameters:
    ///   - name: The cache, such as a table name.
    ///   - date: When its data was fetched.
    /// - Throws: ``DatabaseError``.
    /// The copy's validators go: a copy saved without them is never confirmed by a `304`.
    public func setCacheStamp(_ name: String, to date: Date) throws {
        try setCacheStamp(name, to: date, validators: nil)
    }

    /// Records when the cache called `name` was last written or confirmed, and the validators of
    /// the answer it holds (``CacheValidators``), which the next GET sends to be answered `304`
    /// when nothing changed. Call it inside the write that stores the data.
    ///
    /// - Parameters:
    ///   - name: The cache.
    ///   - date: When its data was fetched or confirmed.
    ///   - validators: What the answer said of its version; `nil` for none.
    /// - Throws: ``DatabaseError``.
    public func setCacheStamp(_ name: String, to date: Date, validators: CacheValidators?) throws {
        let json = try validators.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try execute(
            """
            INSERT INTO cache_stamps (name, saved_at, validators) VALUES (?, ?, ?)
            ON CONFLICT(name) DO UPDATE SET saved_at = excluded.saved_at, validators = excluded.validators
            """,
            [.text(name), .real(date.timeIntervalSince1970), json.map(SQLValue.text) ?? .null])
    }

    /// ``setCacheStamp(_:to:validators:)`` counting what brought the cache up to date, in the same
    /// row: a refresh answered `304` still writes one row.
    ///
    /// - Parameters:
    ///   - name: The cache.
    ///   - date: When its data was fetched or confirmed.
    ///   - validators: What the answer said of its version; `nil` for none.
    ///   - event: What brought it up to date.
    /// - Throws: ``DatabaseError``.
    package func setCacheStamp(
        _ name: String, to date: Date, validators: CacheValidators?, counting event: CacheStampEvent
    ) throws {
        let json = try validators.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        // The event is bound: 1 in its own column, 0 in the others, added to what the row holds.
        try execute(
            """
            INSERT INTO cache_stamps (name, saved_at, validators, saved, confirmed, updated)
            VALUES (?1, ?2, ?3, ?4 = 'saved', ?4 = 'confirmed', ?4 = 'updated')
            ON CONFLICT(name) DO UPDATE SET saved_at = excluded.saved_at, validators = excluded.validators,
                saved = saved + excluded.saved, confirmed = confirmed + excluded.confirmed,
                updated = updated + excluded.updated
            """,
            [
                .text(name), .real(date.timeIntervalSince1970), json.map(SQLValue.text) ?? .null,
                .text(event.rawValue),
            ])
    }

    /// How many times each ``CacheStampEvent`` brought the cache called `name` up to date; none
    /// counted for a cache never stamped.
    ///
    /// - Parameter name: The cache.
    /// - Returns: The count of each event.
    /// - Throws: ``DatabaseError``.
    package func cacheStampCounts(_ name: String) throws -> [CacheStampEvent: Int] {
        try query("SELECT saved, confirmed, updated FROM cache_stamps WHERE name = ?", [.text(name)]) {
            row -> [CacheStampEvent: Int] in
            [
                .saved: try row.int("saved"), .confirmed: try row.int("confirmed"),
                .updated: try row.int("updated"),
            ]
        }.first ?? [:]
    }

    /// Dates the cache called `name` at `date` unless it has a date already, in one statement:
    /// a cache that was never listed is dated by the first write the API answered.
    ///
    /// - Parameters:
    ///   - name: The cache.
    ///   - date: When the API answered.
    /// - Throws: ``DatabaseError``.
    package func setCacheStampIfAbsent(_ name: String, to date: Date) throws {
        try execute(
            """
            INSERT INTO cache_stamps (name, saved_at, validators) VALUES (?, ?, NULL)
            ON CONFLICT(name) DO NOTHING
            """,
            [.text(name), .real(date.timeIntervalSince1970)])
    }

    /// Drops the validators of the cache called `name`, keeping its date: for a copy that no
    /// longer holds what the answer held (a row of it removed here), so that the next GET asks
    /// for the whole answer instead of being told `304`.
    ///
    /// - Parameter name: The cache.
    /// - Throws: ``DatabaseError``.
    public func forgetCacheValidators(_ name: String) throws {
        try execute("UPDATE cache_stamps SET validators = NULL WHERE name = ?", [.text(name)])
    }

    /// The validators the cache called `name` was saved with, or `nil` when none (or unreadable:
    /// then the next GET is a plain one).
    ///
    /// - Parameter name: The cache.
    /// - Returns: The validators, or `nil`.
    /// - Throws: ``DatabaseError``.
    public func cacheValidators(_ name: String) throws -> CacheValidators? {
        guard
            case .text(let json) = try scalar(
                "SELECT validators FROM cache_stamps WHERE name = ?", [.text(name)])
        else { return nil }
        return try? JSONDecoder().decode(CacheValidators.self, from: Data(json.utf8))
    }

    /// When the cache called `name` was last written, or `nil` if never.
    ///
    /// - Parameter name: The cache, such as a table name.
    /// - Returns: The date, or `nil`.
    /// - Throws: ``DatabaseError``.
    public func cacheStamp(_ name: String) throws -> Date? {
        guard
            case .real(let seconds) = try scalar(
                "SELECT saved_at FROM cache_stamps WHERE name = ?", [.text(name)])
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

/// What brought a cache up to date, counted with its stamp
/// (``Connection/setCacheStamp(_:to:validators:counting:)``): its column in `cache_stamps`.
package enum CacheStampEvent: String, Sendable {
    /// An answer saved whole.
    case saved
    /// An answer the API confirmed with `304 Not Modified`.
    case confirmed
    /// Changes applied to it (a change feed's pages).
    case updated
}
