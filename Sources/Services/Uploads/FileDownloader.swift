public import Foundation
public import Promises

/// Downloads a file into a ``KeptFiles`` folder in pieces, checked against the SHA-256 it should
/// have: a file attached elsewhere, fetched once when this device first needs it.
///
/// Each piece is a `GET` with `Range: bytes=A-B` (RFC 9110, section 14), answered `206` with
/// `Content-Range`, so memory holds one piece whatever the file's size; an API that ignores `Range`
/// answers `200` with the whole file, taken within the client's response limit. The bytes are
/// written beside their final name and kept only when their digest is the one expected: a mismatch
/// keeps nothing and rejects with ``DownloadError/checksumMismatch(expected:received:)``.
/// Requests go through the client: its sign-in, its timeout, its retries of a read.
public struct FileDownloader: Sendable {
    /// The client the requests are sent with.
    public let client: APIClient
    /// The most bytes one request asks for: 4 MiB by default.
    public let chunkSize: Int

    /// A downloader through `client`.
    ///
    /// - Parameters:
    ///   - client: Sends the requests.
    ///   - chunkSize: The most bytes a request asks for; 4 MiB by default.
    public init(client: APIClient, chunkSize: Int = 4 << 20) {
        self.client = client
        self.chunkSize = max(1, chunkSize)
    }

    /// Downloads the file at `url` into `files`, or finds it kept there already.
    ///
    /// - Parameters:
    ///   - url: Where the API serves the file.
    ///   - sha256: The digest the file must have, lowercase hex.
    ///   - files: The folder it is kept in.
    /// - Returns: A promise of the kept file; rejected with the client's error (offline, say), a
    ///   ``DownloadError``, or `KeptFiles.Failure` (a full disk), keeping nothing then.
    public func download(_ url: URL, sha256: String, into files: KeptFiles) -> Promise<KeptFile> {
        if let kept = files.file(sha256: sha256) { return .value(kept) }
        let receiving: KeptFiles.Receiving
        do {
            receiving = try KeptFiles.Receiving(files)
        } catch {
            return Promise(error: error)
        }
        return piece(url, receiving).map(on: .inline) { _ in
            let (kept, digest) = try receiving.keep(expecting: sha256)
            guard let kept else { throw DownloadError.checksumMismatch(expected: sha256, received: digest) }
            return kept
        }
    }

    /// Asks for the piece from where `receiving` stands, and the ones after it until the end.
    private func piece(_ url: URL, _ receiving: KeptFiles.Receiving) -> Promise<Void> {
        let start = receiving.size
        let end = start + Int64(chunkSize) - 1
        let downloader = self
        return client.exchangeAnswer(
            .get, at: url, body: nil, headers: ["Accept": "*/*", "Range": "bytes=\(start)-\(end)"]
        ).then(on: .inline) { answer -> Promise<Void> in
            switch answer.status {
            case 206:
                guard let total = Self.total(answer.fields["content-range"], from: start),
                    !answer.body.isEmpty
                else { throw DownloadError.badRange(answer.fields["content-range"] ?? "none") }
                try receiving.append(answer.body)
                return receiving.size < total ? downloader.piece(url, receiving) : .value(())
            case _ where start == 0:
                // The whole file at once: an API without ranges.
                try receiving.append(answer.body)
                return .value(())
            default:
                throw DownloadError.badRange("a \(answer.status) answer to a range from \(start)")
            }
        }
    }

    /// The file's length from `Content-Range: bytes A-B/TOTAL`, when the piece starts at `start`.
    static func total(_ field: String?, from start: Int64) -> Int64? {
        guard let field, field.hasPrefix("bytes "), let slash = field.firstIndex(of: "/"),
            let dash = field.firstIndex(of: "-"),
            Int64(field[field.index(field.startIndex, offsetBy: 6)..<dash]) == start
        else { return nil }
        return Int64(field[field.index(after: slash)...])
    }
}

/// Why a download kept nothing.
public enum DownloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes that came are not the file expected: their digest is `received`.
    case checksumMismatch(expected: String, received: String)
    /// An answer to a range request the downloader cannot use (`Content-Range` missing or not the
    /// piece asked for).
    case badRange(String)

    /// The failure in words, for a log or a screen.
    public var description: String {
        switch self {
        case .checksumMismatch(let expected, let received):
            "the file that came is not the one expected (SHA-256 \(received), not \(expected)); nothing was kept"
        case .badRange(let said): "the API's answer to a piece of the file cannot be used: \(said)"
        }
    }
}
