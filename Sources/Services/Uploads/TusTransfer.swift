import Foundation
import Promises

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("TusTransfer reads files with POSIX calls, on Linux and Apple platforms")
#endif

/// One upload of one file, as ``FileUploader`` runs it: create, then `PATCH` piece after piece,
/// asking with `HEAD` where the API stands after any failure (tus 1.0.0, core and creation).
struct TusTransfer: Sendable {
    let uploader: FileUploader
    let file: KeptFile
    let idempotencyKey: String
    let metadata: [(String, String)]
    let created: @Sendable (URL) -> Void
    let progress: @Sendable (Int64) -> Void

    /// Failures in a row, without a byte of progress, after which the upload rejects with the last.
    static let strikes = 3
    /// Uploads the API lost (`404`, `410`) created anew before giving up.
    static let restarts = 1

    /// Resumes the upload at `location`, or creates one; an upload the API lost is created anew.
    func run(_ location: URL?, restarts: Int) -> Promise<UploadedFile> {
        let transfer = self
        let started: Promise<(URL, Int64)> =
            if let location {
                offset(at: location).map(on: .inline) { (location, $0) }
            } else {
                create().map(on: .inline) { (location: URL) -> (URL, Int64) in
                    transfer.created(location)
                    return (location, 0)
                }
            }
        return started.then(on: .inline) { location, offset in
            transfer.send(to: location, from: offset, strikes: 0)
        }.recover(on: .inline) { error -> Promise<UploadedFile> in
            guard Self.isGone(error), restarts < Self.restarts else { throw UploadError.named(error) }
            return transfer.run(nil, restarts: restarts + 1)
        }
    }

    /// Sends the file from `offset` on, a piece at a time; after a failure that may pass, asks
    /// where the API stands and goes on from there.
    private func send(to location: URL, from offset: Int64, strikes: Int) -> Promise<UploadedFile> {
        progress(offset)
        if offset == file.size { return .value(UploadedFile(location: location, size: file.size)) }
        let piece: Data
        do {
            piece = try read(from: offset)
        } catch {
            return Promise(error: error)
        }
        let transfer = self
        // Only the piece's length is kept past its request: the continuation must not hold the
        // bytes, or a long upload would keep every piece it sent.
        let sent = Int64(piece.count)
        let headers = [
            "Tus-Resumable": FileUploader.version, "Upload-Offset": String(offset),
            "Content-Type": "application/offset+octet-stream",
        ]
        // The recovery covers this piece's request only, never the pieces after it: a failure
        // further on is that piece's to count, and is not caught again at every level.
        let next: Promise<(offset: Int64, strikes: Int)> = uploader.client.exchangeAnswer(
            .patch, at: location, body: .data(piece), headers: headers
        ).map(on: .inline) { answer in
            let confirmed = try Self.offset(of: answer)
            guard confirmed <= offset + sent else {
                throw UploadError.offsetBeyondSent(offset: confirmed, sent: offset + sent)
            }
            guard confirmed > offset else { throw NoProgress() }
            return (confirmed, 0)
        }.recover(on: .inline) { error -> Promise<(offset: Int64, strikes: Int)> in
            guard Self.mayResume(error), strikes + 1 < Self.strikes else { throw error }
            return transfer.offset(at: location).map(on: .inline) { ($0, strikes + 1) }
        }
        return next.then(on: .inline) { next in
            transfer.send(to: location, from: next.offset, strikes: next.strikes)
        }
    }

    /// Creates the upload; its URL.
    private func create() -> Promise<URL> {
        var headers = [
            "Tus-Resumable": FileUploader.version, "Upload-Length": String(file.size),
            "Idempotency-Key": idempotencyKey,
        ]
        headers["Upload-Metadata"] = metadata.map { key, value in
            "\(key) \(Data(value.utf8).base64EncodedString())"
        }.joined(separator: ",")
        let client = uploader.client
        let creation = client.url(for: uploader.creationPath)
        return client.exchangeAnswer(.post, at: creation, body: nil, headers: headers).map(on: .inline) {
            answer in
            guard let written = answer.fields["location"],
                let location = URL(string: written, relativeTo: creation)?.absoluteURL
            else { throw UploadError.notResumable(reason: "the creation's answer has no Location") }
            return location
        }
    }

    /// How many bytes the upload at `location` holds, as `HEAD` says.
    private func offset(at location: URL) -> Promise<Int64> {
        let size = file.size
        return uploader.client.exchangeAnswer(
            .head, at: location, body: nil, headers: ["Tus-Resumable": FileUploader.version]
        ).map(on: .inline) { answer in
            let offset = try Self.offset(of: answer)
            guard offset <= size else { throw UploadError.offsetBeyondSent(offset: offset, sent: size) }
            return offset
        }
    }

    /// The piece of the file that starts at `offset`.
    private func read(from offset: Int64) throws -> Data {
        let count = Int(min(Int64(uploader.chunkSize), file.size - offset))
        let descriptor = open(file.url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(String(cString: strerror(errno))) }
        defer { _ = close(descriptor) }
        // The piece is mapped memory of its own, given back whole when the request lets it go:
        // from malloc, a piece this size would stay in the arena of whichever thread freed it,
        // and a long upload would keep several of them.
        guard count > 0,
            let memory = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            memory != MAP_FAILED
        else { throw unreadable("no memory for a piece of \(count) bytes") }
        var filled = 0
        while filled < count {
            let got = pread(descriptor, memory + filled, count - filled, off_t(offset) + off_t(filled))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        let piece = Data(bytesNoCopy: memory, count: count, deallocator: .unmap)
        guard filled == count else { throw unreadable("it is shorter than the \(file.size) bytes kept") }
        return piece
    }

    private func unreadable(_ reason: String) -> UploadError {
        .fileUnreadable(path: file.url.path, reason: reason)
    }

    /// A `204` that moved nothing on: asked about again like a failure.
    private struct NoProgress: Error {}

    /// The `Upload-Offset` of an answer.
    private static func offset(of answer: APIClient.Answer) throws -> Int64 {
        guard let field = answer.fields["upload-offset"], let offset = Int64(field), offset >= 0 else {
            throw UploadError.notResumable(reason: "the answer has no Upload-Offset")
        }
        return offset
    }

    /// Whether asking where the API stands and going on may help: a lost connection, a timeout,
    /// a `5xx`, a `409` (the offsets disagree), a piece that moved nothing on.
    private static func mayResume(_ error: any Error) -> Bool {
        if error is NoProgress { return true }
        let failure = FailureClass(error)
        switch failure.kind {
        case .offline, .serverTrouble, .later: return true
        case .refused: return failure.status == 409
        default: return false
        }
    }

    /// Whether the API no longer has the upload.
    private static func isGone(_ error: any Error) -> Bool {
        let status = FailureClass(error).status
        return status == 404 || status == 410
    }
}
