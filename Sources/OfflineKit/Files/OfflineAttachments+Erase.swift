public import Promises
import Services

/// What a sign-out that erases leaves of an account's files (nothing), and what a record deleted
/// in the API leaves of its files (nothing either).
extension OfflineAttachments {
    /// Erases the attachments `account` made on this device: their rows, their uploads waiting,
    /// the map of the API's upload ids, and the kept files no other attachment keeps
    /// (`Database/erase(_:)`: nothing stays in the file or its log). Attachments made with no
    /// sign-in stay.
    ///
    /// - Parameter account: The account signing out.
    /// - Returns: A promise of how many uploads that waited were dropped.
    public func erase(account: String) -> Promise<Int> {
        let (feature, files) = (feature, files)
        return table.database.erase { connection -> (dropped: Int, gone: [String]) in
            let digests = try connection.query(
                "SELECT DISTINCT sha256 FROM offline_attachments WHERE feature = ? AND account = ?",
                [.text(feature), .text(account)]
            ) { try $0.string("sha256") }
            try connection.execute(
                "DELETE FROM offline_attachments WHERE feature = ? AND account = ?",
                [.text(feature), .text(account)])
            let dropped = try connection.execute(
                "DELETE FROM outbox WHERE feature = ? AND account = ?", [.text(feature), .text(account)])
            try connection.execute(
                """
                DELETE FROM outbox_identifiers WHERE feature = ? AND NOT EXISTS (
                    SELECT 1 FROM offline_attachments WHERE offline_attachments.feature = outbox_identifiers.feature
                        AND offline_attachments.id = outbox_identifiers.local_id)
                """, [.text(feature)])
            return (dropped, try digests.filter { try !AttachmentsTable.isKept($0, connection) })
        }.map(on: .inline) { erased in
            // After the commit: a file removed before it could be needed again by a rollback.
            for sha256 in erased.gone { try? files.remove(sha256: sha256) }
            return erased.dropped
        }
    }

    /// Removes attachment `id` whose upload is held (refused by the API, or its file damaged): its
    /// row, its upload, and its kept file when no other attachment keeps it. A record naming it
    /// then waits as a child of a discarded parent does (held, with the reason; see
    /// `OfflineReference`). An upload that waits or is under way is not removed, as
    /// ``Outbox/discard(localID:reverting:)`` discards only what is held.
    ///
    /// - Parameter id: The attachment's id here.
    /// - Returns: A promise of whether anything was removed.
    public func discard(id: String) -> Promise<Bool> {
        let (feature, files, outbox) = (feature, files, outbox)
        return outbox.discard(localID: id) { _, _ in }.then(on: .inline) { _ in
            table.write { connection -> (removed: Bool, gone: String?) in
                guard try AttachmentsTable.row(id, feature: feature, connection)?.apiID == nil else {
                    return (false, nil)
                }
                let pending = try outbox.entries(for: id, in: connection)
                guard pending.isEmpty else { return (false, nil) }
                let gone = try AttachmentsTable.remove(id, feature: feature, connection)
                return (true, gone)
            }
        }.map(on: .inline) { removed in
            if let sha256 = removed.gone { try? files.remove(sha256: sha256) }
            return removed.removed
        }
    }

    /// Lets go of `attachments` of a record the API deleted: the row of each one uploaded, and its
    /// kept file (or a file fetched from the API) when no other attachment keeps the same bytes.
    /// An upload that has not completed is never let go of here.
    ///
    /// The files go inside the transaction that removes the record: were it rolled back, a file
    /// removed is one the API holds whole, fetched again by ``file(for:)`` when it is asked for.
    func release(_ attachments: [OfflineAttachment], _ connection: Connection) throws {
        for attachment in attachments {
            let row = try AttachmentsTable.row(attachment.id, feature: feature, connection)
            if let row, row.apiID == nil { continue }
            if row != nil { _ = try AttachmentsTable.remove(attachment.id, feature: feature, connection) }
            if try !AttachmentsTable.isKept(attachment.sha256, connection) {
                try? files.remove(sha256: attachment.sha256)
            }
        }
    }
}
