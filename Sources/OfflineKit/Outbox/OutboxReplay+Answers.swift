import Foundation
import Promises
import Services

/// What an answer, or a failure, means for the entry that was sent: the outbox's reading of
/// `FailureClass`.
extension OutboxReplay {
    /// What the API's answer (or failure) means for an entry.
    enum Outcome: Equatable {
        /// Accepted: remove the entry and apply the answer.
        case delivered(Data)
        /// Refused for good: keep it, marked with the reason, and go on.
        case refused(String)
        /// Offline, or asked to come back with no time given: keep it and the rest, and stop.
        case stop(ServiceRequestError)
        /// Asked to come back after `seconds` (`Retry-After`): keep that time with it, and stop.
        case later(ServiceRequestError, status: Int, seconds: Double)
        /// Failed in a way that is not "offline" (a 5xx, an unknown failure): count it; stop, or,
        /// past the bound, hold it as stuck and go on with the other resources.
        case failed(ServiceRequestError)
        /// Another writer changed the resource (412 to its `If-Match`, with the API's copy when it
        /// sent one) or deleted it (404 or 410 to a conditional PUT): merge, or hold as a conflict.
        case conflict(theirs: Data?, deletedOnServer: Bool)
    }

    /// What `FailureClass` says for the entry: refused for a 4xx (but a 404 or 410 to a DELETE,
    /// which means it is done, and a 412, or a 404 or 410 to a conditional PUT, which is another
    /// writer's change); a `Retry-After` says when to come back; offline, cancelled, or "later"
    /// without a time stop (a `Retry-After` of no time counts as a failure); so does a `401` (no
    /// sign-in: nothing is refused or counted); an answer that is not
    /// the API's stops without counting; server trouble and anything else count as a failure of
    /// the entry.
    static func outcome(of error: any Error, for entry: OutboxEntry) -> Outcome {
        if let tooLarge = error as? APIClient.ConflictTooLarge {
            return .refused(
                "HTTP 412: changed by someone else, and the API's copy (at least \(tooLarge.bytes) bytes) is larger than the \(APIClient.maximumConflictBytes) bytes a conflict keeps"
            )
        }
        let failure = FailureClass(error)
        let apiError = (error as? APIClient.RetryLater)?.error ?? error as? APIError
        let reason = ServiceRequestError(apiError ?? error)
        switch failure.kind {
        case .refused:
            if failure.isGone, entry.method == .delete {
                return .delivered(Data())
            }
            if let theirs = FailureClass.conflictCopy(of: error) {
                return .conflict(theirs: theirs, deletedOnServer: false)
            }
            if failure.isGone, entry.method == .put, entry.baseVersion != nil {
                return .conflict(theirs: nil, deletedOnServer: true)
            }
            guard case .httpStatus(let status, let body)? = apiError else { return .failed(reason) }
            return .refused(refusalReason(status: status, body: body))
        case .later:
            guard failure.retryAfter != nil, let status = failure.status else { return .stop(reason) }
            // A wait of nothing (`Retry-After: 0`, a negative one, a date past) counts as a
            // failure, which waits the backoff and, repeated, makes the change stuck.
            guard let seconds = failure.waitAsked else { return .failed(reason) }
            return .later(reason, status: status, seconds: seconds)
        case .offline where failure.answerMayBeLost:
            // It left and no answer came: not "offline", and checked at the next sync.
            return .stop(.answerLost)
        case .offline, .cancelled, .signedOut:
            // Signed out: the change waits, untouched and uncounted, for the next sign-in.
            return .stop(reason)
        case .serverTrouble, .other:
            return .failed(reason)
        }
    }

    /// "HTTP 409: what the API said", from `{"error": ...}`, `{"message": ...}` or
    /// `{"errors": [{"message": ...}]}`, else the start of the body.
    static func refusalReason(status: Int, body: String) -> String {
        struct Said: Decodable {
            struct Item: Decodable { let message: String? }
            let error: String?
            let message: String?
            let errors: [Item]?
        }
        let said = try? JSONDecoder().decode(Said.self, from: Data(body.utf8))
        let text =
            said?.error ?? said?.message
            ?? said?.errors?.compactMap(\.message).joined(separator: " ")
            ?? String(body.prefix(200))
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(trimmed)"
    }
}

// MARK: - Held entries: failures counted, refusals kept

/// What a run does with an entry it cannot deliver: a failure counted (the backoff, or stuck), or
/// a refusal kept with the API's reason.
extension OutboxReplay {
    /// Counts a failed attempt: the entry waits for the backoff and the sync stops (the API is
    /// failing); the failure past the bound makes it stuck instead, and the sync goes on. `said`,
    /// when given, is kept as the reason instead of `reason`'s message (the API's body, say).
    func fail(_ entry: OutboxEntry, _ reason: ServiceRequestError, _ run: Run, saying said: String? = nil) {
        let failures = entry.failures + 1
        let stuck = failures > retry.maximumRetries
        let wait = stuck ? nil : retry.delay(beforeRetry: failures - 1)
        let notBefore = wait.map { now().addingTimeInterval($0) }
        let status: Int? = if case .httpStatus(let status) = reason { status } else { nil }
        let message = said ?? reason.userMessage
        let written = database.write {
            try OutboxTable.recordFailure(
                entry, error: message, status: status, notBefore: notBefore, wait: wait, stuck: stuck, $0)
        }
        run.whenSettled(written) { written in
            if case .failure(let error) = written { return run.fail(error) }
            if stuck {
                done(entry, run) { $0.stuck.append(entry) }
            } else {
                done(entry, stopping: true, run) { $0.stop(reason, retryAt: notBefore) }
            }
        }
    }

    /// An error as the user reads it: a `DatabaseError` or ``OutboxError`` says what it is,
    /// anything else through the one mapping.
    static func describe(_ error: any Error) -> String {
        if let error = error as? OutboxError { return error.description }
        return ServiceRequestError(error).userMessage
    }

    func refuse(_ entry: OutboxEntry, _ reason: String, _ run: Run) {
        run.whenSettled(database.write { try OutboxTable.refuse(entry, reason: reason, $0) }) { written in
            guard case .success = written else {
                if case .failure(let error) = written { run.fail(error) }
                return
            }
            done(entry, run) { $0.refused.append(entry.refused(reason)) }
        }
    }
}

// MARK: - Versions and conflicts

/// Versions and conflicts: each change of a resource with a version is sent with `If-Match`, and
/// an answer that another writer changed it meanwhile is merged field by field
/// (``JSONMerge``) or held as a conflict for the user.
extension OutboxReplay {
    /// The header fields an entry is sent with (`APIClient/writeHeaders(idempotencyKey:basedOn:)`):
    /// `If-Match` for an update or a delete made from a version.
    static func headers(of entry: OutboxEntry) -> [String: String] {
        APIClient.writeHeaders(
            idempotencyKey: entry.idempotencyKey,
            basedOn: entry.method == .put || entry.method == .delete ? entry.baseVersion : nil)
    }

    /// Another writer changed the resource: when the feature's merge rule gives a value, or the two
    /// sides changed different fields, the entry is rebased on the API's copy with the merged body and sent again (once per sync);
    /// otherwise it is held as a conflict, with the API's copy, and the other resources go on.
    func conflict(
        _ entry: OutboxEntry, theirs: Data?, deletedOnServer: Bool, _ run: Run
    ) {
        let rebasedBefore = run.window.withLock { $0.report.rebasedAfterConflict.contains(entry.sequence) }
        if !deletedOnServer, let theirs, let mine = entry.body, entry.method == .put, !rebasedBefore,
            let merged = merge?(entry.base, mine, theirs)
                ?? entry.base.flatMap({ JSONMerge.threeWay(base: $0, mine: mine, theirs: theirs) })
        {
            // Merged only when something of theirs came in: a 412 whose copy is the base (the
            // same version, no field changed) is sent again as it was, and not called a merge.
            let tookTheirs = !JSONMerge.isSame(merged, mine)
            let version = JSONMerge.version(of: theirs)
            let rebased = database.write {
                try OutboxTable.rebase(entry, body: merged, baseVersion: version, base: theirs, $0)
            }
            run.whenSettled(rebased) { written in
                if case .failure(let error) = written { return run.fail(error) }
                done(entry, again: true, run) { report in  // the same entry, merged, goes again
                    if tookTheirs { report.merged.append(entry) }
                    report.rebasedAfterConflict.append(entry.sequence)
                }
            }
            return
        }
        let held = database.write {
            try OutboxTable.hold(entry, theirs: theirs, deletedOnServer: deletedOnServer, $0)
        }
        run.whenSettled(held) { written in
            if case .failure(let error) = written { return run.fail(error) }
            done(entry, run) { report in
                report.conflicted.append(
                    entry.with(
                        method: entry.method, path: entry.path, body: entry.body,
                        state: .conflicted(theirs: theirs, deletedOnServer: deletedOnServer)))
            }
        }
    }
}

extension OutboxTable {
    /// Puts `entry` on top of the API's current copy: the merged body, that copy's version and
    /// the copy itself as the new base.
    static func rebase(
        _ entry: OutboxEntry, body: Data?, baseVersion: String?, base: Data?, _ connection: Connection
    ) throws {
        try connection.execute(
            """
            UPDATE outbox SET body = ?, base_version = ?, base = ?, conflict = 0, theirs = NULL,
                failures = 0, not_before = NULL
            WHERE sequence = ?
            """,
            [
                body.map(SQLValue.blob) ?? .null, baseVersion.map(SQLValue.text) ?? .null,
                base.map(SQLValue.blob) ?? .null, .integer(entry.sequence),
            ])
    }

    /// Moves the changes made after `held` onto the API's copy `theirs`, when the user kept theirs
    /// over `held`: each update's body becomes `theirs` with the fields that update changed (from
    /// the body before it), and each change is based on `theirs` and its version. Without a copy
    /// to move them onto they stay as they are: the API then answers them with its copy.
    static func rebase(
        _ later: [OutboxEntry], after held: OutboxEntry, onto theirs: Data?, _ connection: Connection
    )
        throws
    {
        guard let theirs, Outbox.isObject(theirs) else { return }
        let version = JSONMerge.version(of: theirs)
        var previous = held.body
        var current = theirs
        for entry in later {
            var body = entry.body
            if entry.method == .put, let change = entry.body, let made = previous,
                let rebased = JSONMerge.rebase(change, madeOn: made, onto: current)
            {
                body = rebased
                current = rebased
            }
            previous = entry.body ?? previous
            try rebase(entry, body: body, baseVersion: version, base: theirs, connection)
        }
    }

    /// Holds `entry` as a conflict with the API's copy (`nil`: deleted there, or not sent).
    static func hold(_ entry: OutboxEntry, theirs: Data?, deletedOnServer: Bool, _ connection: Connection)
        throws
    {
        try connection.execute(
            "UPDATE outbox SET conflict = ?, theirs = ? WHERE sequence = ?",
            [.integer(deletedOnServer ? 2 : 1), theirs.map(SQLValue.blob) ?? .null, .integer(entry.sequence)])
    }

    /// After the API accepted a change, the later changes of the same resource were made on top of
    /// it: they carry the version it answered with, and its answer as their base.
    static func advanceBase(
        after entry: OutboxEntry, to answer: Data, id: String, feature: String, _ connection: Connection
    )
        throws
    {
        guard let version = JSONMerge.version(of: answer) else { return }
        try connection.execute(
            """
            UPDATE outbox SET base_version = ?, base = ?
            WHERE feature = ? AND local_id = ? AND sequence > ? AND method != 'POST'
            """,
            [.text(version), .blob(answer), .text(feature), .text(id), .integer(entry.sequence)])
    }
}
