public import Foundation
public import Promises

/// Uploads kept files to an API: resumably, over tus 1.0.0 (tus.io, "Resumable upload
/// protocol": its core and its creation extension), by default; or whole, as the body of one
/// request, for an API that takes files that way (``Style/singleRequest(_:)``).
///
/// Over tus:
/// - Creation: `POST` to ``creationPath`` with `Upload-Length`, `Upload-Metadata` (`filename`,
///   `filetype`, `sha256`) and an `Idempotency-Key`; the API answers `201` with the upload's
///   `Location`, handed to `created` so that the caller can keep it: a later process resumes the
///   same upload rather than starting another.
/// - Bytes: `PATCH`es of at most ``chunkSize`` bytes read from the file as they are sent (memory
///   does not grow with the file), each with `Upload-Offset` and
///   `Content-Type: application/offset+octet-stream`, answered `204` with the new offset.
/// - After a lost connection, a timeout, a `5xx` or a `409` (offsets disagree), a `HEAD` asks where
///   the API stands and the upload goes on from there: a failure costs at most the piece in flight,
///   never the whole file. Three failures in a row without progress reject with the last one.
/// - An upload the API no longer has (`404`, `410`) is created anew, once.
/// - `400`, `403`, `412`, `413` and `415` reject with ``UploadError/refused(status:reason:)``; an
///   offset beyond what was sent with ``UploadError/offsetBeyondSent(offset:sent:)``.
///
/// Requests go through the client: its sign-in, its timeout (per request), its limits.
public struct FileUploader: Sendable {
    /// The client the requests are sent with.
    public let client: APIClient
    /// Where uploads are created, relative to the client's base URL: `uploads` by default.
    public let creationPath: String
    /// The most bytes one `PATCH` carries: 4 MiB by default. A failure resends at most this much;
    /// a piece must go within the client's timeout.
    public let chunkSize: Int

    /// How files go to the API: over tus by default.
    public let style: Style

    /// How an API takes files.
    public enum Style: Sendable, Hashable {
        /// tus 1.0.0, core and creation: resumed from where the API stands after a failure.
        case tus
        /// The whole file as the body of one request, streamed from disk: `POST` to the creation
        /// path, or `PUT` to the creation path followed by the upload's key. The answer's
        /// `Location` names the upload (for a `PUT` without one, its URL). A failure sends the
        /// whole file again at the next attempt, under the same `Idempotency-Key`.
        case singleRequest(HTTPMethod)
    }

    /// An uploader through `client`.
    ///
    /// - Parameters:
    ///   - client: Sends the requests.
    ///   - creationPath: Where uploads are created; `uploads` by default.
    ///   - chunkSize: The most bytes a `PATCH` carries; 4 MiB by default. For a single request,
    ///     how often progress is heard.
    ///   - style: How the API takes files; tus by default.
    public init(
        client: APIClient, creationPath: String = "uploads", chunkSize: Int = 4 << 20, style: Style = .tus
    ) {
        self.client = client
        self.creationPath = creationPath
        self.chunkSize = max(1, chunkSize)
        self.style = style
    }

    /// The version of the protocol every request names (`Tus-Resumable`).
    package static let version = "1.0.0"

    /// Uploads `file`, going on from where the API stands when `location` names an upload begun
    /// before.
    ///
    /// - Parameters:
    ///   - file: The kept file.
    ///   - name: The name the API gets (`filename`).
    ///   - contentType: Its media type (`filetype`), such as `application/pdf`.
    ///   - idempotencyKey: The creation's key: the same for every attempt at this file, so that a
    ///     creation whose answer was lost makes no second upload.
    ///   - location: The upload begun before, as `created` gave it; `nil` for a new one. A single
    ///     request has nothing to resume.
    ///   - created: Gets the upload's URL once the API made it, before a byte is sent (tus).
    ///   - progress: Gets the bytes the API holds, as it confirms them.
    /// - Returns: A promise of the uploaded file; cancelling it stops the piece in flight.
    public func upload(
        _ file: KeptFile, name: String, contentType: String, idempotencyKey: String,
        resuming location: URL? = nil,
        created: @escaping @Sendable (URL) -> Void = { _ in },
        progress: @escaping @Sendable (Int64) -> Void = { _ in }
    ) -> Promise<UploadedFile> {
        if case .singleRequest(let method) = style {
            return WholeFileTransfer(
                uploader: self, method: method, file: file, name: name, contentType: contentType,
                idempotencyKey: idempotencyKey, progress: progress
            ).run()
        }
        let transfer = TusTransfer(
            uploader: self, file: file, idempotencyKey: idempotencyKey,
            metadata: [("filename", name), ("filetype", contentType), ("sha256", file.sha256)],
            created: created, progress: progress)
        return transfer.run(location, restarts: 0)
    }
}
