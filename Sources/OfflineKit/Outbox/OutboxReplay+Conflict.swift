import Foundation
import Promises
import Services

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
