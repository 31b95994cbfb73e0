public import Foundation
public import Promises
public import Services

extension Outbox {
    /// Which side of a conflict the user keeps.
    public enum Keeping: Sendable, Equatable {
        /// This device's change: sent again over the API's copy (with `If-Match` of its version),
        /// or, when the API deleted the resource, creating it again.
        case mine
        /// The API's copy: this device's changes of the resource are dropped.
        case theirs
    }

    /// Settles a conflict keeping this device's change over the API's current copy, fetched first
    /// with `fetchTheirs` when the conflict does not hold one (the API answered `412` without a
    /// body, or with one that is not a JSON object): the change is never sent again without
    /// knowing what it overwrites. When the fetch fails nothing changes and the promise is
    /// rejected with its error; `nil` from it means the API no longer has the resource.
    ///
    /// - Parameters:
    ///   - localID: The resource's identifier on this device.
    ///   - recreatingAt: Where the resource is created again when the API deleted it.
    ///   - fetchTheirs: Reads the API's copy as JSON; `nil` when it is gone.
    /// - Returns: A promise of how many changes were resolved; 0 when the resource has no conflict.
    public func resolveKeepingMine(
        localID: String, recreatingAt: String? = nil,
        fetchingTheirs fetchTheirs: @escaping @Sendable () -> Promise<Data?>
    ) -> Promise<Int> {
        let (feature, table, outbox) = (feature, table, self)
        let resolve: @Sendable () -> Promise<Int> = {
            outbox.resolve(localID: localID, keeping: .mine, recreatingAt: recreatingAt) { _, _ in }
        }
        return table.read { connection -> OutboxEntry? in
            let held = try OutboxTable.entries(feature, localID, connection).first(where: \.isConflicted)
            guard let held, case .conflicted(let theirs, false) = held.state, !Self.isObject(theirs) else {
                return nil
            }
            return held
        }
        .then(on: .inline) { missing -> Promise<Int> in
            guard let missing else { return resolve() }
            return fetchTheirs().then(on: .inline) { theirs in
                table.write {
                    try OutboxTable.hold(missing, theirs: theirs, deletedOnServer: theirs == nil, $0)
                }
            }
            .then(on: .inline) { resolve() }
        }
    }

    /// Whether `json` is a JSON object: an API's copy a change can be based on.
    static func isObject(_ json: Data?) -> Bool {
        guard let json else { return false }
        return (try? JSONSerialization.jsonObject(with: json)) is [String: Any]
    }

    /// Settles a conflict (``OutboxEntry/State/conflicted(theirs:deletedOnServer:)``) the way the
    /// user chose, in one transaction; the changes held behind it go with the next sync.
    ///
    /// | the API's side | keeping mine | keeping theirs |
    /// | --- | --- | --- |
    /// | changed | the change is sent again with `If-Match` of the API's version (without one when the API did not send its copy: ``resolveKeepingMine(localID:recreatingAt:fetchingTheirs:)`` reads it first) | the change in conflict dropped; the resource's later changes kept, each moved onto the API's copy with the fields it changed, and sent with `If-Match` of its version; `applyingTheirs` gets the API's copy (`nil` when it did not send it: fetch it), and finds the later changes with ``entries(for:in:)`` |
    /// | deleted | an update becomes a POST to `recreatingAt` with its body; a delete is done | every change of the resource dropped; `applyingTheirs` gets `nil` |
    ///
    /// - Parameters:
    ///   - localID: The resource's identifier on this device.
    ///   - keeping: The side the user keeps.
    ///   - recreatingAt: Where the resource is created when the API deleted it and the user keeps
    ///     an update, such as `notes`; without it, the update is sent again without `If-Match`.
    ///   - applyingTheirs: Makes the feature's tables hold the API's copy, or removes the
    ///     resource when it is `nil`, in the same transaction; called only when keeping theirs.
    /// - Returns: A promise of how many changes were resolved or dropped; 0 when the resource has
    ///   no conflict.
    public func resolve(
        localID: String, keeping: Keeping, recreatingAt: String? = nil,
        applyingTheirs: @escaping @Sendable (_ theirs: Data?, _ connection: Connection) throws -> Void
    ) -> Promise<Int> {
        let feature = feature
        return table.write { connection in
            guard
                let (entries, held, theirs, deleted) = try OutboxTable.heldConflict(
                    feature, localID, connection)
            else { return 0 }
            let later = entries.filter { $0.sequence > held.sequence }
            switch keeping {
            case .theirs where deleted || later.isEmpty:
                try connection.execute(
                    "DELETE FROM outbox WHERE feature = ? AND local_id = ?",
                    [SQLValue.text(feature), SQLValue.text(localID)])
                try applyingTheirs(deleted ? nil : theirs, connection)
                return entries.count
            case .theirs:
                // Only the change in conflict is given up: what the user changed after it still
                // goes, moved onto the API's copy (each change keeps the fields it changed).
                try OutboxTable.rebase(later, after: held, onto: theirs, connection)
                try connection.execute(
                    "DELETE FROM outbox WHERE sequence = ?", [SQLValue.integer(held.sequence)])
                try applyingTheirs(theirs, connection)
                return 1
            case .mine where deleted && held.method == .delete:
                try connection.execute(
                    "DELETE FROM outbox WHERE sequence = ?", [SQLValue.integer(held.sequence)])
            case .mine where deleted && recreatingAt == nil:
                // Nowhere to create it: the update goes without `If-Match`, and the API decides
                // (a PUT may create; a 404 again is a refusal the user sees).
                try OutboxTable.rebase(held, body: held.body, baseVersion: nil, base: nil, connection)
            case .mine where deleted:
                try connection.execute(
                    """
                    UPDATE outbox SET method = 'POST', path = ?, base_version = NULL, base = NULL, conflict = 0,
                        theirs = NULL, failures = 0, not_before = NULL
                    WHERE sequence = ?
                    """,
                    [SQLValue.text(recreatingAt ?? ""), SQLValue.integer(held.sequence)])
            case .mine:
                try OutboxTable.rebase(
                    held, body: held.body, baseVersion: theirs.flatMap(JSONMerge.version(of:)), base: theirs,
                    connection)
            }
            return 1
        }
    }
}
