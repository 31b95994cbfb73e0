import Foundation
import Services

/// Merging a change into the last change of its resource, when that one has not been sent.
extension OutboxTable {
    /// Merges `method` on `localID` into the resource's last entry when the rules allow: that
    /// entry is pending (not held), has never been attempted, and the pair is create + update,
    /// update + update, create + delete or update + delete. `nil` when the change is to be added.
    static func coalesce(
        _ method: HTTPMethod, _ path: String, body: Data?, localID: String, feature: String,
        _ connection: Connection
    ) throws -> Outbox.Recorded? {
        guard method == .put || method == .delete,
            let last = try entries(feature, localID, connection).last, last.state == .pending,
            try !mayHaveArrived(last, connection)
        else { return nil }
        switch (last.method, method) {
        case (.post, .put), (.put, .put):
            // A create carrying an edit still leaves without the local identifier in its body.
            let merged = last.method == .post ? body.map { JSONMerge.naming($0, localID, as: nil) } : body
            try connection.execute(
                "UPDATE outbox SET body = ? WHERE sequence = ?",
                [merged.map(SQLValue.blob) ?? .null, .integer(last.sequence)])
            return .merged(into: last.with(method: last.method, path: last.path, body: merged))
        case (.post, .delete):
            try connection.execute("DELETE FROM outbox WHERE sequence = ?", [.integer(last.sequence)])
            // Deleted before the API had it: a change naming it (a related record) is held with
            // the reason, never sent naming a resource that does not exist.
            try remember(localID, became: discarded, feature: feature, connection)
            return .cancelledOut
        case (.put, .delete):
            try connection.execute(
                "UPDATE outbox SET method = ?, path = ?, body = NULL WHERE sequence = ?",
                [.text(method.rawValue), .text(path), .integer(last.sequence)])
            return .merged(into: last.with(method: method, path: path, body: nil))
        default:
            return nil
        }
    }

    /// Marks `entry` as possibly arrived, before a sync sends it: from then on nothing merges into
    /// it. Committed before the request leaves, so a process killed meanwhile still knows.
    static func markAttempted(_ entry: OutboxEntry, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE outbox SET attempted = 1 WHERE sequence = ?", [.integer(entry.sequence)])
    }

    /// Marks `entry` as never sent again, when its attempt made no connection: later edits merge
    /// into it as into any change not sent yet.
    static func markNeverSent(_ entry: OutboxEntry, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE outbox SET attempted = 0 WHERE sequence = ?", [.integer(entry.sequence)])
    }

    private static func mayHaveArrived(_ entry: OutboxEntry, _ connection: Connection) throws -> Bool {
        guard
            case .integer(let attempted) = try connection.scalar(
                "SELECT attempted FROM outbox WHERE sequence = ?", [.integer(entry.sequence)])
        else { return true }
        return attempted != 0
    }
}

extension OutboxEntry {
    /// The same entry with another request (and, when given, another base).
    func with(
        method: HTTPMethod, path: String, body: Data?, state: State? = nil, baseVersion: String?? = nil,
        base: Data?? = nil
    ) -> OutboxEntry {
        OutboxEntry(
            sequence: sequence, localID: localID, method: method, path: path, body: body,
            idempotencyKey: idempotencyKey, state: state ?? self.state, createdAt: createdAt,
            notBefore: notBefore,
            failures: failures, baseVersion: baseVersion ?? self.baseVersion, base: base ?? self.base)
    }
}
