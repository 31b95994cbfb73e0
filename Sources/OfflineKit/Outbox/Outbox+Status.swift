public import Promises
public import Services

/// What waits and what is held, as a screen shows it.
extension Outbox {
    /// Each changed resource's state and how many changes wait or were refused.
    ///
    /// - Returns: A promise of the status.
    public func status() -> Promise<OutboxStatus> {
        entries().map(on: .inline) { OutboxStatus(entries: $0) }
    }

    /// The status, read inside the caller's transaction or observed read: what a screen that
    /// watches its data reads with its rows (`Database/observe(tables:on:read:onChange:)` with
    /// the `outbox` table among its tables).
    ///
    /// - Parameter connection: The connection of the caller's read.
    /// - Returns: The status.
    /// - Throws: `DatabaseError`.
    public func status(in connection: Connection) throws -> OutboxStatus {
        OutboxStatus(entries: try OutboxTable.entries(feature, nil, connection))
    }

    /// The status read inside the caller's transaction, with the resources whose rows say they
    /// were changed here: one without an entry is damaged (its change is missing), never synced.
    ///
    /// - Parameters:
    ///   - connection: The connection of the caller's read.
    ///   - changedHere: The identifiers of the resources the feature's rows mark as changed here.
    /// - Returns: The status.
    /// - Throws: `DatabaseError`.
    public func status(in connection: Connection, changedHere: [String]) throws -> OutboxStatus {
        OutboxStatus(entries: try OutboxTable.entries(feature, nil, connection), changedHere: changedHere)
    }
}
