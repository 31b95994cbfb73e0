import Foundation

/// Finding the next entry to send, in the transaction that marks it.
extension OutboxReplay {
    /// What comes after `last`, an entry to send marked attempted under `claim`, in the caller's
    /// write transaction; ``Next/elsewhere`` when another sync holds the claim.
    static func nextMarked(
        _ feature: String, after last: Int64, now: Date, account: String?, _ claim: OutboxClaim,
        prepare: Outbox.Preparation?, _ connection: Connection
    ) throws -> Next {
        let next = try next(feature, after: last, now: now, account: account, prepare: prepare, connection)
        if case .send(let entry) = next, try !mark(entry, claim, now, connection) { return .elsewhere }
        return next
    }

    /// What comes after `last`, read in the caller's transaction.
    static func next(
        _ feature: String, after last: Int64, now: Date, account: String?, prepare: Outbox.Preparation? = nil,
        _ connection: Connection
    )
        throws -> Next
    {
        guard let entry = try OutboxTable.next(feature, after: last, account: account, connection) else {
            return .end
        }
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
