import Foundation
import Services

/// One sync per file across processes: the run's side of ``OutboxClaim``.
extension OutboxReplay {
    /// Marks `entry` attempted, in the caller's transaction, if this sync holds (or takes) the
    /// claim; otherwise leaves it as it is.
    ///
    /// - Returns: Whether it may be sent.
    static func mark(
        _ entry: OutboxEntry, _ claim: OutboxClaim, _ now: Date, _ connection: Connection
    )
        throws -> Bool
    {
        guard try claim.renew(at: now, connection) else { return false }
        try OutboxTable.markAttempted(entry, connection)
        return true
    }
}
