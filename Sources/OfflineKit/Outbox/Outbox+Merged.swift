public import Foundation
public import Promises
public import Services

extension Outbox {
    /// Settles a conflict with a value made from both sides, in one transaction: the change in
    /// conflict becomes `merged`, sent with `If-Match` of the API's version (a deletion made here
    /// becomes that update); when the API deleted the resource, `merged` is created again at
    /// `recreatingAt`. The changes made after it are moved onto `merged`, each keeping the fields
    /// it changed.
    ///
    /// - Parameters:
    ///   - localID: The resource's identifier on this device.
    ///   - merged: The merged resource as JSON, with the API's version.
    ///   - recreatingAt: Where the resource is created again when the API deleted it; without
    ///     it, the update is sent without `If-Match`, and the API decides.
    ///   - applying: Makes the feature's tables show the resource as its last change leaves it, in
    ///     the same transaction.
    /// - Returns: A promise of how many changes were resolved; 0 when the resource has no
    ///   conflict.
    public func resolve(
        localID: String, merged: Data, recreatingAt: String? = nil,
        applying: @escaping @Sendable (_ connection: Connection) throws -> Void
    ) -> Promise<Int> {
        let feature = feature
        return table.write { connection in
            guard
                let (entries, held, theirs, deleted) = try OutboxTable.heldConflict(
                    feature, localID, connection)
            else { return 0 }
            let recreated = deleted && recreatingAt != nil
            let version = deleted ? nil : theirs.flatMap(JSONMerge.version(of:))
            var body = merged
            if var object = try JSONSerialization.jsonObject(with: merged) as? [String: Any] {
                // Made from the API's copy: its version. Created again: the API names it.
                object["version"] = version
                if recreated { object["id"] = nil }
                body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            }
            try connection.execute(
                """
                UPDATE outbox SET method = ?, path = ?, body = ?, base_version = ?, base = ?, conflict = 0,
                    theirs = NULL, failures = 0, not_before = NULL
                WHERE sequence = ?
                """,
                [
                    .text(recreated ? HTTPMethod.post.rawValue : HTTPMethod.put.rawValue),
                    .text(recreated ? recreatingAt ?? held.path : held.path), .blob(body),
                    version.map(SQLValue.text) ?? .null,
                    deleted ? .null : theirs.map(SQLValue.blob) ?? .null, .integer(held.sequence),
                ])
            let later = entries.filter { $0.sequence > held.sequence }
            try OutboxTable.rebase(later, after: held, onto: recreated ? merged : body, connection)
            try applying(connection)
            return 1
        }
    }
}

extension OutboxTable {
    /// A resource's entries and the first of them held as a conflict, with the API's copy and
    /// whether the API deleted it; `nil` when none is in conflict.
    static func heldConflict(_ feature: String, _ localID: String, _ connection: Connection) throws
        -> (entries: [OutboxEntry], held: OutboxEntry, theirs: Data?, deleted: Bool)?
    {
        let entries = try entries(feature, localID, connection)
        guard let held = entries.first(where: \.isConflicted),
            case .conflicted(let theirs, let deleted) = held.state
        else { return nil }
        return (entries, held, theirs, deleted)
    }
}
