public import Foundation
public import Services

extension OfflineStorage {
    /// When the copy was last saved from a listing, or, never filled from the API, when the newest
    /// change was made here (those changes are still a copy to show); `nil` when neither: the
    /// date the copy is shown with, read without reading the copy.
    ///
    /// - Parameter connection: The connection of the transaction opened on ``tables``.
    /// - Returns: The date, or `nil` for a copy that holds nothing.
    /// - Throws: `DatabaseError` when the tables cannot be read.
    public func copySavedAt(in connection: Connection) throws -> Date? {
        try connection.cacheStamp(copyStamp) ?? outbox.newestChange(in: connection)
    }

    /// Saves a listing as the copy, in the caller's transaction: the API's rows replaced by
    /// `fresh` (those changed here kept), and the copy dated `date`. What ``OfflineCollection``
    /// does with every listing, for a store that also fills its copy itself.
    ///
    /// - Parameters:
    ///   - fresh: The resources as listed.
    ///   - date: When they were listed.
    ///   - connection: The connection of the transaction opened on ``tables``.
    /// - Throws: `DatabaseError` when the tables cannot be written.
    public func saveCopy(_ fresh: [Resource], at date: Date, in connection: Connection) throws {
        try saveCopy(fresh, at: date, validators: nil, in: connection)
    }

    /// Saves a listing as the copy with the validators of its answer, which the next listing
    /// sends to be answered `304 Not Modified` when nothing changed (`CacheValidators`).
    ///
    /// - Parameters:
    ///   - fresh: The resources as listed.
    ///   - date: When they were listed.
    ///   - validators: What the answer said of its version.
    ///   - connection: The connection of the transaction opened on ``tables``.
    /// - Throws: `DatabaseError` when the tables cannot be written.
    public func saveCopy(
        _ fresh: [Resource], at date: Date, validators: CacheValidators?, in connection: Connection
    ) throws {
        try replaceAPICopy(with: fresh, in: connection)
        try connection.setCacheStamp(copyStamp, to: date, validators: validators, counting: .saved)
    }

    /// Dates the copy `date` with its validators kept, for a listing the API answered
    /// `304 Not Modified`: nothing else is written.
    ///
    /// - Returns: Whether there was a copy to confirm (a copy never listed has no date).
    func confirmCopy(at date: Date, in connection: Connection) throws -> Bool {
        guard try connection.cacheStamp(copyStamp) != nil else { return false }
        try connection.setCacheStamp(
            copyStamp, to: date, validators: try connection.cacheValidators(copyStamp), counting: .confirmed)
        return true
    }

    /// The copy as shown (changes made here laid over the API's rows) and its date (see
    /// ``copySavedAt(in:)``), or `nil` when it holds nothing.
    ///
    /// - Parameter connection: The connection of the transaction opened on ``tables``.
    /// - Returns: The copy, or `nil`.
    /// - Throws: `DatabaseError` when the tables cannot be read.
    public func loadCopy(in connection: Connection) throws -> Cached<[Resource]>? {
        guard let savedAt = try copySavedAt(in: connection) else { return nil }
        return Cached(value: try resources(in: connection), savedAt: savedAt)
    }

    /// Dates a copy that was never filled from a listing at `date`, once the API answered a write
    /// of it (an online write, or a change sent): the rows it holds are the API's, so the copy is
    /// shown offline from then on, with its age, instead of "nothing to show yet". A copy filled
    /// from a listing keeps that listing's date.
    ///
    /// - Parameters:
    ///   - date: When the API answered.
    ///   - connection: The connection of the transaction opened on ``tables``.
    /// - Throws: `DatabaseError` when the tables cannot be written.
    func dateCopyIfUndated(_ date: Date, in connection: Connection) throws {
        try connection.setCacheStampIfAbsent(copyStamp, to: date)
    }
}
