import Foundation

/// The SQL behind ``Outbox``: every statement on the `outbox` table, values bound.
enum OutboxTable {
    /// The entries of `feature` (of one resource when `localID` is given), in sequence order.
    static func entries(_ feature: String, _ localID: String?, _ connection: Connection) throws
        -> [OutboxEntry]
    {
        let rows =
            if let localID {
                try connection.query(
                    """
                    SELECT sequence, local_id, method, path, body, idempotency_key, refusal, created_at
                    FROM outbox WHERE feature = ? AND local_id = ? ORDER BY sequence
                    """,
                    [.text(feature), .text(localID)])
            } else {
                try connection.query(
                    """
                    SELECT sequence, local_id, method, path, body, idempotency_key, refusal, created_at
                    FROM outbox WHERE feature = ? ORDER BY sequence
                    """, [.text(feature)])
            }
        return try rows.map { try entry($0, connection) }
    }

    /// The first waiting entry of `feature` after `sequence`, or `nil`.
    static func next(_ feature: String, after sequence: Int64, _ connection: Connection) throws
        -> OutboxEntry?
    {
        try connection.query(
            """
            SELECT sequence, local_id, method, path, body, idempotency_key, refusal, created_at FROM outbox
            WHERE feature = ? AND sequence > ? AND refusal IS NULL ORDER BY sequence LIMIT 1
            """,
            [.text(feature), .integer(sequence)]
        ).first.map { try entry($0, connection) }
    }

    /// How many entries of `feature` wait to be sent.
    static func waiting(_ feature: String, _ connection: Connection) throws -> Int {
        guard
            case .integer(let count) = try connection.scalar(
                "SELECT count(*) FROM outbox WHERE feature = ? AND refusal IS NULL", [.text(feature)])
        else { return 0 }
        return try Int(database: count, column: "count(*)")
    }

    /// What completing an entry did.
    enum Completion {
        /// Another sync had already completed it.
        case alreadyDone
        /// Done; with the API's identifier when it gave the resource one.
        case done(newID: String?)
    }

    /// Removes an entry the API accepted and lets the feature apply the answer, in the caller's
    /// transaction.
    static func complete(
        _ entry: OutboxEntry, answer: Data, feature: String, _ connection: Connection,
        _ delivered: Outbox.Delivery
    ) throws -> Completion {
        guard try connection.execute("DELETE FROM outbox WHERE sequence = ?", [.integer(entry.sequence)]) == 1
        else { return .alreadyDone }
        guard let remoteID = try delivered(entry, answer, connection), remoteID != entry.localID else {
            return .done(newID: nil)
        }
        try rename(entry.localID, to: remoteID, feature: feature, connection)
        return .done(newID: remoteID)
    }

    /// Marks an entry refused with the API's reason.
    static func refuse(_ entry: OutboxEntry, reason: String, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE outbox SET refusal = ? WHERE sequence = ?", [.text(reason), .integer(entry.sequence)])
    }

    /// Gives the later entries of a resource the API's identifier, in their paths too.
    private static func rename(
        _ localID: String, to remoteID: String, feature: String, _ connection: Connection
    )
        throws
    {
        let escapedLocal = escaped(localID)
        for entry in try entries(feature, localID, connection) {
            let path = entry.path.split(separator: "/", omittingEmptySubsequences: false)
                .map { $0 == localID || $0 == escapedLocal ? escaped(remoteID) : String($0) }
                .joined(separator: "/")
            try connection.execute(
                "UPDATE outbox SET local_id = ?, path = ? WHERE sequence = ?",
                [.text(remoteID), .text(path), .integer(entry.sequence)])
        }
    }

    /// An identifier made safe for a path segment.
    static func escaped(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
    }

    private static func entry(_ row: Row, _ connection: Connection) throws -> OutboxEntry {
        let methodName = try row.string("method")
        guard let method = HTTPMethod(rawValue: methodName) else {
            throw DatabaseError(
                kind: .typeMismatch, message: "outbox.method: unknown method \(methodName)",
                path: connection.path)
        }
        let body: Data? =
            switch row["body"] {
            case .blob(let data)?: data
            case .text(let text)?: Data(text.utf8)
            default: nil
            }
        return OutboxEntry(
            sequence: Int64(try row.int("sequence")), localID: try row.string("local_id"), method: method,
            path: try row.string("path"), body: body, idempotencyKey: try row.string("idempotency_key"),
            state: try row.optionalString("refusal").map { .refused(reason: $0) } ?? .pending,
            createdAt: Date(timeIntervalSince1970: try row.double("created_at")))
    }
}
