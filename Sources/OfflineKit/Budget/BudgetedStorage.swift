public import Services

/// A feature's own tables (an ``OfflineStorage`` of its own) whose copy a ``StorageBudget``
/// bounds beside the collections that share the JSON table: it lists its rows with their sizes
/// and dates, and lets go of those the budget picks. The budget decides what must stay (rows
/// changed here, rows a waiting change is about or names, pinned rows) from the outbox and the
/// pins, under ``collection``.
public protocol BudgetedStorage: Sendable {
    /// The collection's name: its outbox's feature, which its changes and pins are kept under.
    var collection: String { get }
    /// The name its listing's date and validators are kept under (``OfflineStorage/copyStamp``):
    /// a listing that lost rows is asked whole the next time.
    var copyStamp: String { get }
    /// The tables its rows are kept in: a change to them runs ``StorageBudget/enforcing(on:_:)``'s
    /// check.
    var observedTables: Set<String> { get }

    /// Every row of the copy, in any order, each with what it takes and when it was saved.
    ///
    /// - Parameter connection: The connection of the budget's transaction.
    /// - Returns: The rows.
    /// - Throws: `DatabaseError` when the tables cannot be read.
    func budgetedRows(in connection: Connection) throws -> [BudgetedRow]

    /// Removes the rows `ids` of the API's copy, in the budget's transaction: the budget only names
    /// rows that came from the API and that nothing waits on.
    ///
    /// - Parameters:
    ///   - ids: The rows' identifiers.
    ///   - connection: The connection of the budget's transaction.
    /// - Throws: `DatabaseError` when the tables cannot be written: the pass lets go of nothing.
    func evict(_ ids: [String], in connection: Connection) throws
}

/// A row of a ``BudgetedStorage``'s copy, as a ``StorageBudget`` weighs it.
public struct BudgetedRow: Sendable, Equatable {
    /// The resource's identifier.
    public var id: String
    /// What the row takes, in bytes (its values as stored).
    public var bytes: Int
    /// When the API's values were last saved in it or it was last read on its own
    /// (``OfflineStorage/markRead(id:in:)``), in seconds since 1970: the oldest go first.
    public var savedAt: Double
    /// Whether it was changed here and not confirmed by the API yet: never let go of.
    public var changedHere: Bool

    /// Makes the row.
    public init(id: String, bytes: Int, savedAt: Double, changedHere: Bool) {
        (self.id, self.bytes, self.savedAt, self.changedHere) = (id, bytes, savedAt, changedHere)
    }
}
