public import Foundation

extension OfflineStorage {
    /// When the copy was last saved from a listing, or, never filled from the API, when the newest
    /// change was made here (those changes are still a copy to show); `nil` when neither: the
    /// date the copy is shown with, read without reading the copy.
    ///
    /// - Parameter connection: The connection of the transaction opened on ``tables``.
    /// - Returns: The date, or `nil` for a copy that holds nothing.
    /// - Throws: ``DatabaseError`` when the tables cannot be read.
    public func copySavedAt(in connection: Connection) throws -> Date? {
        try connection.cacheStamp(copyStamp) ?? outbox.newestChange(in: connection)
    }
}
