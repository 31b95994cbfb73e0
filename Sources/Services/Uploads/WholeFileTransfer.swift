import Foundation
import Promises

/// One upload of one file as the body of a single request, read from disk as it is sent, for an
/// API that takes files whole (``FileUploader/Style/singleRequest(_:)``).
///
/// - `POST` to the creation path, or `PUT` to the creation path followed by the upload's key (the
///   creation's `Idempotency-Key`: the same URL at every attempt, as `PUT` wants).
/// - `Content-Type` the file's, `Content-Disposition` with its name (RFC 6266, RFC 8187),
///   `Repr-Digest` with its SHA-256 (RFC 9530), `Idempotency-Key`.
/// - The answer's `Location` names the upload; without one, a `PUT`'s URL does.
///
/// Nothing of a failed attempt is kept: the next attempt sends the whole file again. Progress
/// counts the bytes sent, heard once a piece of ``FileUploader/chunkSize`` has gone and at the end.
struct WholeFileTransfer: Sendable {
    let uploader: FileUploader
    let method: HTTPMethod
    let file: KeptFile
    let name: String
    let contentType: String
    let idempotencyKey: String
    let progress: @Sendable (Int64) -> Void

    /// Sends the file; the upload the API made of it.
    func run() -> Promise<UploadedFile> {
        let client = uploader.client
        let creation = client.url(for: uploader.creationPath)
        let url = method == .put ? creation.appendingPathComponent(idempotencyKey) : creation
        let headers = [
            "Content-Type": contentType, "Idempotency-Key": idempotencyKey,
            "Content-Disposition": Self.disposition(name), "Repr-Digest": Self.digest(file.sha256),
        ]
        let (size, progress) = (file.size, progress)
        let steps = ProgressSteps(size: size, step: Int64(uploader.chunkSize))
        let sent: @Sendable (Int64) -> Void = { sent in
            if steps.due(sent) { progress(sent) }
        }
        progress(0)
        return client.exchangeAnswer(
            method, at: url, body: .file(file.url, size: size, sent: sent), headers: headers
        ).map(on: .inline) { [method] answer in
            let location = answer.fields["location"].flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }
            guard let location = location ?? (method == .put ? url : nil) else {
                throw UploadError.notResumable(reason: "the upload's answer has no Location")
            }
            sent(size)  // the whole file, once, whether or not the platform said so already
            return UploadedFile(location: location, size: size)
        }.recover(on: .inline) { error -> Promise<UploadedFile> in throw UploadError.named(error) }
    }

    /// `attachment` with the file's name, as RFC 6266 writes it: `filename*` in UTF-8 (RFC 8187)
    /// whatever the name holds, and a plain `filename` when it is printable ASCII.
    static func disposition(_ name: String) -> String {
        let allowed = CharacterSet(charactersIn: "!#$&+-.^_`|~")
            .union(CharacterSet(charactersIn: "a"..."z")).union(CharacterSet(charactersIn: "A"..."Z"))
            .union(CharacterSet(charactersIn: "0"..."9"))
        let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let plain = name.unicodeScalars.allSatisfy {
            (0x20..<0x7F).contains($0.value) && $0 != "\"" && $0 != "\\"
        }
        return "attachment; " + (plain ? "filename=\"\(name)\"; " : "") + "filename*=UTF-8''\(encoded)"
    }

    /// `sha-256` of the file, as RFC 9530 writes a digest: the bytes in base64, between colons.
    static func digest(_ hex: String) -> String {
        "sha-256=:\(Data(SHA256.bytes(ofHex: hex)).base64EncodedString()):"
    }
}
