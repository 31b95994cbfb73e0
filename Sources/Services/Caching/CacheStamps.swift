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
    public func setCacheStamp(_ name: String, to date: Date) throws {
        try execute(
            "INSERT INTO cache_stamps (name, saved_at) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET saved_at = excluded.saved_at",
            [.text(name), .real(date.timeIntervalSince1970)])
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
