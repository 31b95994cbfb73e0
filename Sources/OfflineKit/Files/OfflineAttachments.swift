public import Foundation
public import Promises
public import Services

/// Files attached to records offline, kept on this device and uploaded resumably before the
/// records that name them: a file is a parent the record waits for.
///
/// - ``attach(fileAt:name:contentType:)`` copies the file into a folder of the kit's own beside
///   the database (`KeptFiles`: named by its SHA-256, owner-only), then queues its upload in an
///   ``Outbox`` of its own, in one transaction with the attachment's row: deleting or changing the
///   original afterwards changes nothing. Put the attachment it gives in the record's field.
/// - ``sync()`` uploads what waits, over tus 1.0.0 (`FileUploader`) or whole in one request for an
///   API that takes files so: each upload once across processes (the outbox's claim), several in
///   flight, a failure resumed from where the API stands (tus), never the whole file; a refused file (`400`, `413`, `415`) is held with the API's
///   reason, as a refused change is.
/// - A collection declares the field with ``OfflineReference/attachments(_:to:)``: its change
///   waits for each file's upload, and goes naming the API's upload id. Sync the attachments
///   before the collections that name them (``SyncedCollections``), or let the scheduler do it.
///
/// ```swift
/// let files = OfflineAttachments(database: database, client: api)
/// let receipt = try await files.attach(fileAt: picked, contentType: "application/pdf").async()
/// orders.update(id: order.id) { $0.attachments.append(receipt) }
/// ```
public struct OfflineAttachments: SyncedCollection {
    /// The outbox feature uploads wait in, and the collection a reference names: `attachments`.
    public let feature: String
    /// Where uploads wait to be sent.
    public let outbox: Outbox
    /// The files kept here.
    public let files: KeptFiles
    let uploader: FileUploader
    let table: FeatureDatabase
    let client: APIClient
    let makeID: @Sendable () -> String

    /// The attachments of `database`, uploaded through `client`.
    ///
    /// - Parameters:
    ///   - database: The app's database; the rows of the attachments live in it.
    ///   - client: The API's client (signed in, when the API wants it).
    ///   - folder: Where the files are kept; `Attachments` beside the database file by default.
    ///   - feature: The outbox feature of the uploads; `attachments` by default.
    ///   - creationPath: Where the API creates uploads (tus); `uploads` by default.
    ///   - chunkSize: The most bytes one request carries (tus); 4 MiB by default.
    ///   - style: How the API takes files: tus by default, or whole in one request.
    ///   - makeID: The id of an attachment made here, until the API gives its upload's.
    ///   - now: The clock that times the waits after a failed upload.
    public init(
        database: Database, client: APIClient, folder: URL? = nil, feature: String = "attachments",
        creationPath: String = "uploads", chunkSize: Int = 4 << 20, style: FileUploader.Style = .tus,
        makeID: @escaping @Sendable () -> String = { "attachment-" + UUID().uuidString },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.feature = feature
        self.client = client
        self.makeID = makeID
        outbox = Outbox(database: database, feature: feature, now: now)
        table = FeatureDatabase(
            database, schema: AttachmentsTable.name, migrations: AttachmentsTable.migrations,
            waitingFor: [outbox.ready])
        files = KeptFiles(folder: folder ?? Self.folder(beside: database))
        uploader = FileUploader(
            client: client, creationPath: creationPath, chunkSize: chunkSize, style: style)
    }

    /// `Attachments` beside the database's file; for a database in memory, a folder of its own
    /// in the temporary directory.
    static func folder(beside database: Database) -> URL {
        guard database.path != ":memory:" else {
            return FileManager.default.temporaryDirectory.appendingPathComponent(
                "Attachments-\(UUID().uuidString)", isDirectory: true)
        }
        return URL(fileURLWithPath: database.path).deletingLastPathComponent()
            .appendingPathComponent("Attachments", isDirectory: true)
    }

    /// Keeps a copy of the file at `source` and queues its upload.
    ///
    /// - Parameters:
    ///   - source: The user's file; only read.
    ///   - name: The name the API gets; the file's own by default.
    ///   - contentType: Its media type, such as `image/jpeg`.
    /// - Returns: A promise of the attachment, for the record's field; rejected with
    ///   `KeptFiles.Failure` when the file cannot be read or kept (nothing is queued then).
    public func attach(fileAt source: URL, name: String? = nil, contentType: String)
        -> Promise<OfflineAttachment>
    {
        let (files, table, outbox, feature, account) = (
            files, table, outbox, feature, client.credentials?.account
        )
        let id = makeID()
        let kept = Promise<KeptFile> { seal in
            DispatchQueue.global().async { seal.resolve(Result { try files.keep(copyOf: source) }) }
        }
        return kept.then(on: .inline) { file -> Promise<OfflineAttachment> in
            let attachment = OfflineAttachment(
                id: id, name: name ?? source.lastPathComponent, contentType: contentType, size: file.size,
                sha256: file.sha256)
            return table.write { connection in
                // A storage budget's pass may have let go of the same bytes, downloaded or uploaded
                // before, since they were kept: kept again, before the row that keeps them commits.
                if files.file(sha256: file.sha256) == nil { _ = try files.keep(copyOf: source) }
                try AttachmentsTable.insert(attachment, feature: feature, account: account, connection)
                try outbox.record(
                    .post, "uploads", json: attachment, localID: id, account: account, in: connection)
                return attachment
            }.recover(on: .inline) { error -> Promise<OfflineAttachment> in
                // Not queued: the copy goes too, before the error is told, unless another
                // attachment keeps the same bytes.
                table.read { try AttachmentsTable.isKept(file.sha256, $0) }.then(on: .inline) {
                    kept -> Promise<OfflineAttachment> in
                    if !kept { try? files.remove(sha256: file.sha256) }
                    throw error
                }.recover(on: .inline) { _ -> Promise<OfflineAttachment> in throw error }
            }
        }
    }

    /// Uploads what waits, each once across processes, from where the API stands.
    ///
    /// - Returns: A promise of what was uploaded (``OutboxSyncReport/newIDs`` maps each attachment
    ///   made here to the API's upload id), held and left.
    public func sync() -> Promise<OutboxSyncReport> {
        let (feature, table, attachments) = (feature, table, self)
        // Most syncs have no file to upload: one read then, not a run's claim and transactions.
        return table.read { connection in
            try connection.scalar("SELECT EXISTS (SELECT 1 FROM outbox WHERE feature = ?)", [.text(feature)])
        }.then(on: .inline) { waits -> Promise<OutboxSyncReport> in
            guard waits == .integer(1) else { return .value(OutboxSyncReport()) }
            return attachments.uploading()
        }
        .recover(on: .inline) { error -> Promise<OutboxSyncReport> in throw ServiceRequestError(error) }
    }

    /// The outbox's run of the uploads that wait.
    private func uploading() -> Promise<OutboxSyncReport> {
        let (feature, table, files, uploader) = (feature, table, files, uploader)
        let database = table.database
        return outbox.sync(
            with: client, merging: nil, preparing: nil,
            transport: { entry, beat in
                Self.upload(
                    entry, beat, feature: feature, database: database, files: files, uploader: uploader)
            },
            delivered: { entry, answer, connection in
                let apiID = try APIClient.decode(UploadAnswer.self, from: answer).id
                try AttachmentsTable.uploaded(entry.localID, apiID: apiID, feature: feature, connection)
                return apiID
            })
    }

    /// Where the upload of attachment `id` (this device's or the API's) stands.
    ///
    /// - Parameter id: The attachment's id.
    /// - Returns: A promise of its state.
    public func state(of id: String) -> Promise<OfflineAttachmentState> {
        let (feature, outbox) = (feature, outbox)
        return table.read { try Self.state(of: id, feature: feature, outbox: outbox, $0) }
    }

    /// The attachments whose upload is not complete (waiting, under way or held), oldest first:
    /// what a sync is to upload, for a screen that shows its progress with
    /// ``observe(_:on:_:)`` ("Uploading 2 files: 3.2 of 28 MB").
    ///
    /// - Returns: A promise of the attachments, as the records name them.
    public func unfinishedUploads() -> Promise<[OfflineAttachment]> {
        let feature = feature
        return table.read { try AttachmentsTable.unfinished(feature: feature, $0) }
    }

    /// Watches the uploads of `ids` for a screen ("Uploading receipt.pdf: 3.2 of 8 MB"): `onChange`
    /// gets their states at once, in the order of `ids`, then again each time one moves on,
    /// whichever process uploads it.
    ///
    /// - Parameters:
    ///   - ids: The attachments' ids, as the record names them.
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets the states, or the error a read threw.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observe(
        _ ids: [String], on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<[OfflineAttachmentState], any Error>) -> Void
    ) -> ObservationHandle {
        let (feature, outbox) = (feature, outbox)
        return table.database.observe(tables: [AttachmentsTable.name, "outbox"], on: dispatcher) {
            connection in
            try ids.map { try Self.state(of: $0, feature: feature, outbox: outbox, connection) }
        } onChange: {
            onChange($0)
        }
    }

    /// The one rule of an attachment's state, read in the caller's transaction.
    static func state(of id: String, feature: String, outbox: Outbox, _ connection: Connection) throws
        -> OfflineAttachmentState
    {
        guard let row = try AttachmentsTable.row(id, feature: feature, connection) else { return .unknown }
        if row.apiID != nil { return .uploaded }
        switch try outbox.entries(for: row.attachment.id, in: connection).first?.state {
        case .refused(let reason)?, .damaged(let reason)?: return .held(reason: reason)
        case .stuck(let lastError)?: return .held(reason: lastError)
        default: break
        }
        return row.sent > 0 || row.location != nil
            ? .uploading(sent: row.sent, of: row.attachment.size) : .waiting
    }

    /// The file of `attachment` on this device: the copy kept here, or, for a file attached on
    /// another device, downloaded once from the API (in pieces, checked against its SHA-256) and
    /// kept from then on.
    ///
    /// - Parameter attachment: The attachment, as the record names it.
    /// - Returns: A promise of the local file's URL; rejected with the client's error when the
    ///   file is not on this device yet and the API cannot be reached, or with `DownloadError`
    ///   when what came is not the file (nothing is kept then).
    public func file(for attachment: OfflineAttachment) -> Promise<URL> {
        if let kept = files.file(sha256: attachment.sha256) {
            files.markUsed(sha256: attachment.sha256)  // a storage budget keeps what is read
            return .value(kept.url)
        }
        let (feature, files, client, creationPath) = (feature, files, client, uploader.creationPath)
        let database = table.database
        return table.read { try AttachmentsTable.row(attachment.id, feature: feature, $0)?.location }
            .then(on: .inline) { location -> Promise<KeptFile> in
                let url =
                    location
                    ?? client.baseURL.appendingPathComponent(creationPath).appendingPathComponent(
                        attachment.id)
                return FileDownloader(client: client).download(url, sha256: attachment.sha256, into: files)
            }.map(on: .inline) { kept in
                // No row records a file downloaded: what observes the attachments (a storage
                // budget that includes the files) is told here that the folder grew.
                database.refreshObservations(of: [AttachmentsTable.name])
                return kept.url
            }
    }

    /// The kept file of `attachment`, when this device has it.
    ///
    /// - Parameter attachment: The attachment, as the record names it.
    /// - Returns: The local file, or `nil`.
    public func keptFile(of attachment: OfflineAttachment) -> KeptFile? {
        files.file(sha256: attachment.sha256)
    }

    /// What the transport answers for an upload: the API's id, as a create's answer names it.
    struct UploadAnswer: Codable {
        let id: String
        let location: String
    }

    /// Uploads the file of `entry`'s attachment, remembering where its upload is and how far it
    /// went as it goes.
    static func upload(
        _ entry: OutboxEntry, _ beat: @escaping @Sendable () -> Void, feature: String, database: Database,
        files: KeptFiles, uploader: FileUploader
    ) -> Promise<Data> {
        let id = entry.localID
        return database.read { try AttachmentsTable.row(id, feature: feature, $0) }.then(on: .inline) {
            row -> Promise<UploadedFile> in
            guard let row, let file = files.file(sha256: row.attachment.sha256) else {
                throw UploadError.fileUnreadable(path: id, reason: "the kept copy of the file is gone")
            }
            return uploader.upload(
                file, name: row.attachment.name, contentType: row.attachment.contentType,
                idempotencyKey: entry.idempotencyKey, resuming: row.location,
                created: { location in
                    _ = database.write { try AttachmentsTable.began(id, at: location, feature: feature, $0) }
                },
                progress: { sent in
                    _ = database.write { try AttachmentsTable.sent(id, sent, feature: feature, $0) }
                    beat()
                })
        }.map(on: .inline) { uploaded in
            try APIClient.encode(UploadAnswer(id: uploaded.id, location: uploaded.location.absoluteString))
        }.recover(on: .inline) { error -> Promise<Data> in
            // A refusal is the API's answer to this file: held with its reason, as a change is.
            guard case .refused(let status, let reason)? = error as? UploadError else { throw error }
            throw APIError.httpStatus(status, body: reason)
        }
    }
}
