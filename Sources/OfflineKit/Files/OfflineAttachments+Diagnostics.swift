public import Promises
import Services

extension OfflineAttachments {
    /// The uploads' outbox (``Outbox/diagnostics()``) with the files kept here
    /// (``OutboxDiagnostics/files``): how many, their bytes, and the bytes not uploaded yet.
    ///
    /// - Returns: A promise of the snapshot; rejected with `ServiceRequestError` when the file
    ///   cannot be read.
    public func diagnostics() -> Promise<OutboxDiagnostics> {
        let (outbox, files, feature) = (outbox, files, feature)
        return table.read { connection in
            var snapshot = try outbox.diagnostics(in: connection)
            let kept = files.all()
            let waiting = try AttachmentsTable.notUploaded(feature: feature, connection)
            snapshot.files = OutboxDiagnostics.Files(
                count: kept.count, bytes: kept.reduce(0) { $0 + Int($1.file.size) },
                waitingBytes: kept.filter { waiting.contains($0.file.sha256) }.reduce(0) {
                    $0 + Int($1.file.size)
                })
            return snapshot
        }.recover(on: .inline) { throw ServiceRequestError($0) }
    }
}
