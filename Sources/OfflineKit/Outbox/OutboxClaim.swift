import Foundation
import Promises
import Services

/// One sync's claim on sending a feature's changes, kept in the database so that it holds across
/// processes: an app and its extensions (a share extension, a widget, a background task) open the
/// same file, and each may sync. Without it two syncs read the same next change and both send it.
///
/// The claim is a row of `outbox_claims` with its owner and a heartbeat. A sync takes or renews it
/// in the transaction that reads the next change and marks it attempted, just before sending it:
/// so a change is only ever sent by the holder, and between two sends the holder renews it,
/// advancing its beat. Another sync takes it only when the holder has stopped: on the same
/// machine, its process no longer runs (``ClaimHolder``), taken at once; otherwise its beat has
/// not moved for `lease` seconds of the other sync's monotonic clock (``ClaimWatch``): longer
/// than a request may take (`APIClient/timeout`, retries included), so a live holder never
/// loses it mid-request. No wall-clock time decides it: a process whose clock jumped forward
/// does not take a live holder's claim. The holder gives it up when its sync ends. (`expires` is
/// still written, for a reader of the file; nothing decides by it.)
struct OutboxClaim: Sendable {
    let feature: String
    /// Who holds it: one per sync run.
    let owner = UUID().uuidString
    /// How long a holder's beat may stand still before its claim is taken, in seconds.
    let lease: Double
    /// What this process saw of other holders' beats.
    var watch = ClaimWatch()
    /// This process, read when the claim is made, outside any transaction.
    var holder = ClaimHolder.current

    /// Takes or renews the claim in the caller's write transaction, unless another sync holds it
    /// and has not stopped.
    ///
    /// - Returns: Whether this sync holds it now.
    func renew(at now: Date, _ connection: Connection) throws -> Bool {
        // The holder's row, read once: whose it is, its process, and its beat.
        let rows = try connection.query(
            "SELECT owner, pid, host, beat FROM outbox_claims WHERE feature = ?", [.text(feature)])
        if let row = rows.first, try row.string("owner") != owner {
            // Its process has ended (``ClaimHolder/hasEnded``): taken at once; otherwise taken
            // only once its beat has stood still for the lease.
            let (other, beat) = (try row.string("owner"), try row.int("beat"))
            let otherHolder = ClaimHolder(pid: Int64(try row.int("pid")), host: try row.string("host"))
            // This process's own claim, left by a run that failed (its last write, which gives the
            // claim up, failed: the database suspended, a full disk): never to be renewed.
            let left = otherHolder == holder && Self.left.withLock { $0.remove(other) != nil }
            let ended = left || otherHolder.hasEnded
            let stalled = ended || watch.hasStalled(feature, owner: other, beat: beat, lease: lease)
            guard stalled else { return false }
            try connection.execute("DELETE FROM outbox_claims WHERE feature = ?", [.text(feature)])
        }
        try connection.execute(
            """
            INSERT INTO outbox_claims (feature, owner, expires, pid, host, beat) VALUES (?, ?, ?, ?, ?, 0)
            ON CONFLICT(feature) DO UPDATE SET expires = excluded.expires, beat = outbox_claims.beat + 1
            WHERE outbox_claims.owner = excluded.owner
            """,
            [
                .text(feature), .text(owner), .real(now.timeIntervalSince1970 + lease), .integer(holder.pid),
                .text(holder.host),
            ])
        return true
    }

    /// The owners of the runs of this process that failed, whose claims may be left behind: each
    /// is taken at once by the next run (and forgotten then). Only failed runs are kept: one that
    /// settled otherwise gave its claim up in its last transaction.
    static let left = Locked<Set<String>>([])

    /// Counts this claim's run as failed: a claim it left behind is taken at once by this process.
    func leave() {
        _ = Self.left.withLock { $0.insert(owner) }
    }

    /// Gives the claim up, in the caller's transaction, if this sync holds it.
    func release(_ connection: Connection) throws {
        try connection.execute(
            "DELETE FROM outbox_claims WHERE feature = ? AND owner = ?", [.text(feature), .text(owner)])
    }
}
