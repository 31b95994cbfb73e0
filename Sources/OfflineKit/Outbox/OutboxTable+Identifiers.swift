import Foundation
import Services

/// The API's identifiers of the resources created here, kept by the ones they had here: what makes
/// a reference to a resource created offline follow it once the API named it.
///
/// A row is written in the transaction that completes the create (``complete(_:answer:feature:_:_:)``),
/// and kept: a change queued, a screen showing, or another process reading the old identifier
/// finds the new one, after a crash too.
extension OutboxTable {
    /// Remembers that resource `localID` of `feature` is `apiID` at the API; a create replayed
    /// under its idempotency key writes the same row again.
    static func remember(_ localID: String, became apiID: String, feature: String, _ connection: Connection)
        throws
    {
        try connection.execute(
            "INSERT OR REPLACE INTO outbox_identifiers (feature, local_id, api_id) VALUES (?, ?, ?)",
            [.text(feature), .text(localID), .text(apiID)])
    }

    /// What the table keeps for a resource created here whose create was discarded: it has no
    /// identifier at the API, and never will.
    static let discarded = ""

    /// The API's identifier of resource `localID` of `feature`, when it was created here and the
    /// API answered with another; ``discarded`` when its create was discarded; `nil` otherwise.
    static func apiID(of localID: String, feature: String, _ connection: Connection) throws -> String? {
        guard
            case .text(let apiID)? = try connection.scalar(
                "SELECT api_id FROM outbox_identifiers WHERE feature = ? AND local_id = ?",
                [.text(feature), .text(localID)])
        else { return nil }
        return apiID
    }

    /// The API's identifier of resource `localID` of `feature`, when the API gave it one other
    /// than `localID`; `nil` otherwise (a discarded create included).
    static func renamed(_ localID: String, feature: String, _ connection: Connection) throws -> String? {
        try apiID(of: localID, feature: feature, connection).flatMap { $0 == discarded ? nil : $0 }
    }

    /// Every identifier resource `id` has had here: `id`, the API's identifier of a resource
    /// created here under it, and the identifiers given here to a resource the API now names
    /// `id`, of any collection (local identifiers are unique across them).
    static func aliases(of id: String, _ connection: Connection) throws -> [String] {
        let others = try connection.query(
            """
            SELECT api_id AS other FROM outbox_identifiers WHERE local_id = ? AND api_id <> ''
            UNION SELECT local_id FROM outbox_identifiers WHERE api_id = ?
            """,
            [.text(id), .text(id)]
        ) { try $0.string("other") }
        return [id] + others.filter { $0 != id }
    }

    /// Whether the create of resource `localID` of `feature` still waits here (queued, held, or
    /// sent and not answered): a change that names it waits for it.
    static func createWaits(_ localID: String, feature: String, _ connection: Connection) throws -> Bool {
        try connection.scalar(
            "SELECT 1 FROM outbox WHERE feature = ? AND local_id = ? AND method = 'POST' LIMIT 1",
            [.text(feature), .text(localID)]) != nil
    }

    /// Whether a create of `feature` was sent and waits still, neither answered nor held: its
    /// answer was lost, and the API may have made the resource.
    static func createAnswerLost(_ feature: String, _ connection: Connection) throws -> Bool {
        try connection.scalar(
            """
            SELECT 1 FROM outbox WHERE feature = ? AND method = 'POST' AND attempted = 1 AND refusal IS NULL
                AND conflict = 0 AND stuck = 0 AND damage IS NULL LIMIT 1
            """, [.text(feature)]) != nil
    }

    /// Deletes `entries`, every entry of resource `localID` of `feature`. A create dropped is
    /// remembered as ``discarded``: the resource never reaches the API, and a change that names it
    /// (a related record) must not be sent naming it.
    static func drop(_ entries: [OutboxEntry], of localID: String, feature: String, _ connection: Connection)
        throws
    {
        try connection.execute(
            "DELETE FROM outbox WHERE feature = ? AND local_id = ?", [.text(feature), .text(localID)])
        if entries.contains(where: { $0.method == .post }) {
            try remember(localID, became: discarded, feature: feature, connection)
        }
    }

    /// Replaces the body and path of `entry`, which name resources by the identifiers the API gave
    /// them.
    static func rewrite(_ entry: OutboxEntry, body: Data, path: String, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE outbox SET body = ?, path = ? WHERE sequence = ?",
            [.blob(body), .text(path), .integer(entry.sequence)])
    }
}
