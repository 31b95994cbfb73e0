import Foundation
import Services

/// The SQL behind ``Outbox``: every statement on the `outbox` table, values bound.
enum OutboxTable {
    /// The start of every read of entries: the columns an entry is made of.
    private static let select = """
        SELECT sequence, local_id, method, path, body, idempotency_key, refusal, created_at, failures,
            last_error, not_before, stuck, base_version, base, conflict, theirs, account, damage, attempted,
            handed_off, body IS NULL OR json_valid(CAST(body AS TEXT)) AS body_is_json
        FROM outbox
        """

    /// ``select`` of a feature's entries without their bodies, bases and the API's versions of
    /// conflicts (`NULL` in their place, the body still checked to be JSON): what a description of
    /// the queue reads (``Outbox/diagnostics()``), 10,000 entries at a time.
    private static let described = """
        SELECT sequence, local_id, method, path, NULL AS body, idempotency_key, refusal, created_at, failures,
            last_error, not_before, stuck, base_version, NULL AS base, conflict, NULL AS theirs, account, damage,
            attempted, handed_off, body IS NULL OR json_valid(CAST(body AS TEXT)) AS body_is_json
        FROM outbox WHERE feature = ? ORDER BY sequence
        """

    /// The entries of `feature` (of one resource when `localID` is given), in sequence order; a
    /// row that cannot be read is a damaged entry, never an error that hides the others.
    static func entries(_ feature: String, _ localID: String?, _ connection: Connection) throws
        -> [OutboxEntry]
    {
        if let localID {
            return try connection.query(
                select + " WHERE feature = ? AND local_id = ? ORDER BY sequence",
                [.text(feature), .text(localID)]
            ) { entry($0, connection) }
        }
        return try connection.query(select + " WHERE feature = ? ORDER BY sequence", [.text(feature)]) {
            entry($0, connection)
        }
    }

    /// The entries of `feature` as ``entries(_:_:_:)`` reads them, with no body, base or theirs.
    static func descriptions(_ feature: String, _ connection: Connection) throws -> [OutboxEntry] {
        try connection.query(described, [.text(feature)]) { entry($0, connection) }
    }

    /// The first entry of `feature` after `sequence`, of `account` or of no account, that is not
    /// refused, stuck or conflicted (it may be
    /// damaged, or behind an earlier entry of its resource: see ``isBehind(_:_:_:)``).
    static func next(_ feature: String, after sequence: Int64, account: String?, _ connection: Connection)
        throws -> OutboxEntry?
    {
        try connection.query(
            nextQuery, [.text(feature), .integer(sequence), account.map(SQLValue.text) ?? .null]
        )
        .first.map {
            entry($0, connection)
        }
    }

    /// The statement of ``next(_:after:account:_:)``: a seek in `outbox_by_feature`, once per change
    /// sent. Only the changes of the account signed in (`?3`), or made with no sign-in: another
    /// account's wait for its own sign-in.
    static let nextQuery =
        select
        + " WHERE feature = ?1 AND sequence > ?2 AND refusal IS NULL AND stuck = 0 AND conflict = 0"
        + " AND (account IS NULL OR account = ?3) ORDER BY sequence LIMIT 1"

    /// How many entries of `feature` wait to be sent (held ones not counted).
    static func waiting(_ feature: String, _ connection: Connection) throws -> Int {
        // Counted from the columns, not by reading every entry: held is refused, stuck, in
        // conflict or damaged, and damaged is also what `readEntry` finds (a method it does not
        // know, a body that is not JSON, no resource).
        guard
            case .integer(let count)? = try connection.scalar(
                """
                SELECT count(*) FROM outbox
                WHERE feature = ? AND refusal IS NULL AND stuck = 0 AND conflict = 0 AND damage IS NULL
                    AND local_id <> '' AND method IN ('GET', 'POST', 'PUT', 'DELETE')
                    AND (body IS NULL OR json_valid(CAST(body AS TEXT)))
                """, [.text(feature)])
        else { return 0 }
        return Int(count)
    }

    /// Records a failed attempt that did not mean "offline": what it got, and when the entry may
    /// go again; past `maximumFailures` in a row the entry is stuck.
    static func recordFailure(
        _ entry: OutboxEntry, error: String, status: Int?, notBefore: Date?, wait: Double?, stuck: Bool,
        _ connection: Connection
    ) throws {
        try connection.execute(
            """
            UPDATE outbox SET failures = failures + 1, last_error = ?, last_status = ?, not_before = ?, wait = ?,
                stuck = ?
            WHERE sequence = ?
            """,
            [
                .text(error), status.map { .integer(Int64($0)) } ?? .null,
                notBefore.map { .real($0.timeIntervalSince1970) } ?? .null,
                wait.map { .real($0) } ?? .null, .integer(stuck ? 1 : 0), .integer(entry.sequence),
            ])
    }

    /// Records when an entry may go again (the API's `Retry-After`, `wait` seconds from `now`),
    /// without counting a failure.
    static func postpone(
        _ entry: OutboxEntry, wait: Double, from now: Date, status: Int, _ connection: Connection
    ) throws {
        try connection.execute(
            "UPDATE outbox SET not_before = ?, wait = ?, last_status = ? WHERE sequence = ?",
            [
                .real(now.addingTimeInterval(wait).timeIntervalSince1970), .real(wait),
                .integer(Int64(status)),
                .integer(entry.sequence),
            ])
    }

    /// When `entry` may go again, capped against `now`: no later than the wait it was granted
    /// from now (a day, for one recorded before waits were), so that a time written while the
    /// clock was wrong (ten years ahead, a day behind) costs at most that wait once corrected. A
    /// capped time is written back, in the caller's write transaction, so that the cap does not
    /// move on with the clock at each read.
    static func due(_ entry: OutboxEntry, now: Date, _ connection: Connection) throws -> Date? {
        guard let notBefore = entry.notBefore, notBefore > now else { return entry.notBefore }
        let granted: Double =
            if case .real(let seconds)? = try connection.scalar(
                "SELECT wait FROM outbox WHERE sequence = ?", [.integer(entry.sequence)])
            {
                seconds
            } else {
                APIClient.longestRetryAfter
            }
        let capped = now.addingTimeInterval(max(0, granted))
        guard capped < notBefore else { return notBefore }
        try connection.execute(
            "UPDATE outbox SET not_before = ? WHERE sequence = ?",
            [.real(capped.timeIntervalSince1970), .integer(entry.sequence)])
        return capped
    }

    /// The HTTP status the last failed attempt of an entry got, if it got one.
    static func lastStatus(_ entry: OutboxEntry, _ connection: Connection) throws -> Int? {
        guard
            case .integer(let status) = try connection.scalar(
                "SELECT last_status FROM outbox WHERE sequence = ?", [.integer(entry.sequence)])
        else { return nil }
        return try Int(database: status, column: "outbox.last_status")
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
            try advanceBase(after: entry, to: answer, id: entry.localID, feature: feature, connection)
            return .done(newID: nil)
        }
        // The entries of both identifiers, read at once: another resource here with changes still
        // waiting under the API's identifier would make renaming two resources one. Throwing rolls
        // back the whole transaction, `delivered` included.
        let both = try connection.query(
            select + " WHERE feature = ? AND local_id IN (?, ?) ORDER BY sequence",
            [.text(feature), .text(entry.localID), .text(remoteID)]
        ).map { self.entry($0, connection) }
        guard !both.contains(where: { $0.localID == remoteID }) else {
            throw OutboxError(identifierTaken: remoteID, creating: entry.localID)
        }
        try rename(both, of: entry.localID, to: remoteID, connection)
        try remember(entry.localID, became: remoteID, feature: feature, connection)
        try advanceBase(after: entry, to: answer, id: remoteID, feature: feature, connection)
        return .done(newID: remoteID)
    }

    /// Marks an entry refused with the API's reason.
    static func refuse(_ entry: OutboxEntry, reason: String, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE outbox SET refusal = ? WHERE sequence = ?", [.text(reason), .integer(entry.sequence)])
    }

    /// Gives the later entries of a resource, `entries`, the API's identifier, in their paths and
    /// bodies too.
    private static func rename(
        _ entries: [OutboxEntry], of localID: String, to remoteID: String, _ connection: Connection
    )
        throws
    {
        let escapedLocal = APIClient.pathSegment(localID)
        for entry in entries where entry.localID == localID {
            let path = entry.path.split(separator: "/", omittingEmptySubsequences: false)
                .map { $0 == localID || $0 == escapedLocal ? APIClient.pathSegment(remoteID) : String($0) }
                .joined(separator: "/")
            let body = entry.body.map { JSONMerge.naming($0, localID, as: remoteID) }
            try connection.execute(
                "UPDATE outbox SET local_id = ?, path = ?, body = ? WHERE sequence = ?",
                [.text(remoteID), .text(path), body.map(SQLValue.blob) ?? .null, .integer(entry.sequence)])
        }
    }

    /// The entry a row holds, or a damaged entry naming the file and the entry when the row
    /// cannot be read.
    private static func entry(_ row: some ColumnValues, _ connection: Connection) -> OutboxEntry {
        do {
            return try readEntry(row, connection)
        } catch {
            let sequence: Int64 = if case .integer(let value)? = row["sequence"] { value } else { 0 }
            let localID: String =
                switch row["local_id"] {
                case .text(let text)?: text
                case .integer(let value)?: String(value)
                default: ""
                }
            let reason = (error as? DatabaseError)?.message ?? "\(error)"
            return OutboxEntry(
                sequence: sequence, localID: localID, method: .post, path: "", body: nil, idempotencyKey: "",
                state: .damaged(
                    reason: "outbox entry \(sequence) in \(connection.path) cannot be read: \(reason)"),
                createdAt: Date(timeIntervalSince1970: 0))
        }
    }

    private static func readEntry(_ row: some ColumnValues, _ connection: Connection) throws -> OutboxEntry {
        let methodName = try row.string("method")
        guard let method = HTTPMethod(rawValue: methodName) else {
            throw DatabaseError(
                kind: .typeMismatch, message: "unknown method \(methodName)", path: connection.path)
        }
        let body = blob(row["body"])
        // A body that is not JSON would be sent as it is, and a POST of garbage may still make
        // something; and an entry for no resource cannot be applied: both are damaged.
        // Checked by SQLite as it reads the row: a parse in Foundation cost more than the rest of
        // the entry (10,000 entries read for `Outbox.diagnostics()`).
        if try row.int("body_is_json") == 0 {  // 1 for no body
            throw DatabaseError(kind: .typeMismatch, message: "its body is not JSON", path: connection.path)
        }
        guard try !row.string("local_id").isEmpty else {
            throw DatabaseError(kind: .typeMismatch, message: "it names no resource", path: connection.path)
        }
        let state: OutboxEntry.State =
            if let damage = try row.optionalString("damage") {
                .damaged(reason: damage)
            } else if let reason = try row.optionalString("refusal") {
                .refused(reason: reason)
            } else if case let conflict = try row.int("conflict"), conflict != 0 {
                .conflicted(theirs: blob(row["theirs"]), deletedOnServer: conflict == 2)
            } else if try row.int("stuck") != 0 {
                .stuck(lastError: try row.optionalString("last_error") ?? "")
            } else {
                .pending
            }
        let notBefore: Date? =
            if case .real(let seconds)? = row["not_before"] { Date(timeIntervalSince1970: seconds) } else {
                nil
            }
        var entry = OutboxEntry(
            sequence: Int64(try row.int("sequence")), localID: try row.string("local_id"), method: method,
            path: try row.string("path"), body: body, idempotencyKey: try row.string("idempotency_key"),
            state: state, createdAt: Date(timeIntervalSince1970: try row.double("created_at")),
            notBefore: notBefore, failures: try row.int("failures"),
            baseVersion: try row.optionalString("base_version"), base: blob(row["base"]))
        entry.account = try row.optionalString("account")
        entry.attemptedBefore = (try? row.int("attempted")).map { $0 != 0 } ?? true
        entry.transfer = try row.optionalString("handed_off")
        return entry
    }

    /// A JSON column: bytes, or text written by hand; `nil` for NULL.
    private static func blob(_ value: SQLValue?) -> Data? {
        switch value {
        case .blob(let data)?: data
        case .text(let text)?: Data(text.utf8)
        default: nil
        }
    }
}

// MARK: - The order within a resource

/// The order within a resource: no change overtakes an earlier one of its resource.
extension OutboxTable {
    /// Whether an earlier entry of `entry`'s resource is still queued: held (refused, stuck,
    /// conflicted or damaged), waiting for a resource it names, or another account's. Then `entry`
    /// waits behind it, so that no change overtakes one of its own resource.
    static func isBehind(_ entry: OutboxEntry, _ feature: String, _ connection: Connection) throws -> Bool {
        try connection.scalar(
            "SELECT 1 FROM outbox WHERE feature = ? AND local_id = ? AND sequence < ? LIMIT 1",
            [.text(feature), .text(entry.localID), .integer(entry.sequence)]) != nil
    }
}

// MARK: - Coalescing

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
            !last.attemptedBefore
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

    /// Marks `entry` as possibly arrived, before a sync sends it (or records the answer a transfer
    /// service got for it): from then on nothing merges into it, and it is no longer handed off.
    /// Committed before the request leaves, so a process killed meanwhile still knows.
    static func markAttempted(_ entry: OutboxEntry, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE outbox SET attempted = 1, handed_off = NULL WHERE sequence = ?",
            [.integer(entry.sequence)])
    }

    /// Marks `entry` as possibly arrived and handed to a transfer service under `name`: no sync
    /// sends it while the service has it, and nothing merges into it.
    static func markHandedOff(_ entry: OutboxEntry, as name: String, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE outbox SET attempted = 1, handed_off = ? WHERE sequence = ?",
            [.text(name), .integer(entry.sequence)])
    }

    /// Takes the changes handed off under `names` back: the outbox sends them itself again (each
    /// with its key, as a change that may have arrived).
    static func takeBack(_ names: [String], _ connection: Connection) throws {
        for name in names {
            try connection.execute("UPDATE outbox SET handed_off = NULL WHERE handed_off = ?", [.text(name)])
        }
    }

    /// The names of every change handed off, of any feature: what a spool keeps for this file.
    static func handedOff(_ connection: Connection) throws -> Set<String> {
        Set(
            try connection.query("SELECT handed_off FROM outbox WHERE handed_off IS NOT NULL") {
                try $0.string("handed_off")
            })
    }

    /// Marks `entry` as never sent again, when its attempt made no connection: later edits merge
    /// into it as into any change not sent yet.
    static func markNeverSent(_ entry: OutboxEntry, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE outbox SET attempted = 0 WHERE sequence = ?", [.integer(entry.sequence)])
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
