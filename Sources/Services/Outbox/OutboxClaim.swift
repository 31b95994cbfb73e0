import Foundation

/// One sync's claim on sending a feature's changes, kept in the database so that it holds across
/// processes: an app and its extensions (a share extension, a widget, a background task) open the
/// same file, and each may sync. Without it two syncs read the same next change and both send it.
///
/// The claim is a row of `outbox_claims` with its owner and when it lapses. A sync takes or renews
/// it in the transaction that marks a change attempted, just before sending it: so a change is
/// only ever sent by the holder, and between two sends the holder renews it. It lapses `lease`
/// seconds after the last renewal: longer than a request may take (``APIClient/timeout``, retries
/// included), so a live holder never loses it mid-request, and a process killed while holding it
/// holds nothing once it lapsed; on the same machine, a claim whose process no longer runs
/// (``ClaimHolder``) is taken at once. The holder gives it up when its sync ends.
struct OutboxClaim: Sendable {
    let feature: String
    /// Who holds it: one per sync run.
    let owner = UUID().uuidString
    /// How long it holds after each renewal, in seconds.
    let lease: Double

    /// Takes or renews the claim in the caller's transaction, unless another sync holds it and it
    /// has not lapsed.
    ///
    /// - Returns: Whether this sync holds it now.
    func renew(at now: Date, _ connection: Connection) throws -> Bool {
        let moment = now.timeIntervalSince1970
        try releaseIfEnded(connection)
        let holder = ClaimHolder.current
        try connection.execute(
            """
            INSERT INTO outbox_claims (feature, owner, expires, pid, host) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(feature) DO UPDATE SET owner = excluded.owner, expires = excluded.expires,
                pid = excluded.pid, host = excluded.host
            WHERE outbox_claims.owner = excluded.owner OR outbox_claims.expires <= ?
            """,
            [
                .text(feature), .text(owner), .real(moment + lease), .integer(holder.pid), .text(holder.host),
                .real(moment),
            ])
        return try connection.scalar(
            "SELECT owner FROM outbox_claims WHERE feature = ?", [.text(feature)]) == .text(owner)
    }

    /// Removes another sync's claim whose process has ended (``ClaimHolder/hasEnded``).
    private func releaseIfEnded(_ connection: Connection) throws {
        let rows = try connection.query(
            "SELECT owner, pid, host FROM outbox_claims WHERE feature = ?", [.text(feature)])
        guard let row = rows.first, try row.string("owner") != owner,
            ClaimHolder(pid: Int64(try row.int("pid")), host: try row.string("host")).hasEnded
        else { return }
        try connection.execute("DELETE FROM outbox_claims WHERE feature = ?", [.text(feature)])
    }

    /// Gives the claim up, in the caller's transaction, if this sync holds it.
    func release(_ connection: Connection) throws {
        try connection.execute(
            "DELETE FROM outbox_claims WHERE feature = ? AND owner = ?", [.text(feature), .text(owner)])
    }
}
