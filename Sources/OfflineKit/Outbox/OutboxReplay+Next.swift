import Foundation
import Services

/// Reading the next entry to send.
extension OutboxReplay {
    /// What comes after `last`, read in the caller's transaction; an entry in `skipping` (in
    /// flight) is passed over.
    static func next(
        _ feature: String, after last: Int64, now: Date, account: String?, skipping: Set<Int64> = [],
        prepare: Outbox.Preparation? = nil, _ connection: Connection
    ) throws -> Next {
        guard let entry = try OutboxTable.next(feature, after: last, account: account, connection) else {
            return .end
        }
        if skipping.contains(entry.sequence) { return .passOver(entry) }
        if try entry.isHeld || OutboxTable.isBehind(entry, feature, connection) { return .passOver(entry) }
        if let due = try OutboxTable.due(entry, now: now, connection), due > now {
            let status = try OutboxTable.lastStatus(entry, connection)
            return .notYet(entry, until: due, status: status)
        }
        guard let prepare else { return .send(entry) }
        // Waiting for a resource it names: passed over, and the later entries of its resource
        // with it (they are behind it).
        return try prepare(entry, connection).map(Next.send) ?? .passOver(entry)
    }
}
