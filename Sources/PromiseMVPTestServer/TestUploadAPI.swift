public import Foundation
import Promises
import Services

/// Resumable uploads as a tus 1.0.0 server takes them (tus.io, core and creation extension), kept
/// in memory, for ``TestHTTPServer``: what an app's own tests upload to.
///
/// | request | answer |
/// | --- | --- |
/// | `OPTIONS /<path>` | `204`, `Tus-Version`, `Tus-Extension: creation`, `Tus-Max-Size` |
/// | `POST /<path>` with `Upload-Length` | `201`, `Location: /<path>/<id>`; the same `Idempotency-Key` again gets the same upload; over ``maximumSize``, `413` |
/// | `HEAD /<path>/<id>` | `200` with `Upload-Offset`, `Upload-Length`, `Cache-Control: no-store`; unknown, `404` |
/// | `PATCH /<path>/<id>` | `204` with the new `Upload-Offset`; another offset than the upload's, `409`; another type than `application/offset+octet-stream`, `415`; past `Upload-Length`, `400` |
/// | `POST /<path>` or `PUT /<path>/<id>` without `Tus-Resumable` | a file sent whole (`FileUploader.Style.singleRequest(_:)`): `201` with `Location`; a body that does not match its `Repr-Digest`, `400` |
/// | `GET /<path>/<id>` | the bytes of a complete upload; with `Range: bytes=A-B`, `206` and that piece |
///
/// Every answer carries `Tus-Resumable: 1.0.0`; a tus request that names another version is
/// answered `412`. Faults a test asks for: ``cutNextPatch(keeping:)`` (a connection broken mid-piece, as a
/// server that kept part of it sees it), ``answerNextPatch(_:)`` and ``forget(_:)``.
///
/// ```swift
/// let uploads = TestUploadAPI()
/// let server = try TestHTTPServer(responder: uploads.respond)
/// ```
public final class TestUploadAPI: Sendable {
    /// One upload as the server holds it.
    public struct Upload: Sendable {
        /// Its id: the last segment of its `Location`.
        public let id: String
        /// The `Upload-Length` it was created with.
        public let length: Int64
        /// How many bytes it holds.
        public internal(set) var offset: Int64
        /// Its `Upload-Metadata`, decoded: `filename`, `filetype`, `sha256` as the kit sends them.
        public let metadata: [String: String]
        /// The SHA-256 of its bytes, lowercase hex, once it is complete.
        public internal(set) var sha256: String?
        /// Its bytes, when the API keeps them (``init(path:maximumSize:keepsBytes:)``).
        public internal(set) var bytes: Data
        var hash = SHA256()
    }

    private struct State: Sendable {
        var uploads: [String: Upload] = [:]
        var order: [String] = []
        var byKey: [String: String] = [:]
        var nextID = 1
        var received: Int64 = 0
        var cut: Int?
        var nextPatchReply: TestHTTPServer.Reply?
        var methods: [String] = []
    }

    /// The path uploads are created at, without slashes: `uploads` by default.
    public let path: String
    /// The largest `Upload-Length` taken; a larger one is answered `413`.
    public let maximumSize: Int64
    /// Whether uploads keep their bytes (for a test that reads them) or only count and hash them.
    public let keepsBytes: Bool
    private let state = Locked(State())

    /// An upload server at `/<path>`.
    ///
    /// - Parameters:
    ///   - path: Where uploads are created; `uploads` by default.
    ///   - maximumSize: The largest upload taken; 1 GiB by default.
    ///   - keepsBytes: Whether uploads keep their bytes; `true` by default.
    public init(path: String = "uploads", maximumSize: Int64 = 1 << 30, keepsBytes: Bool = true) {
        self.path = path
        self.maximumSize = maximumSize
        self.keepsBytes = keepsBytes
    }

    /// The uploads, in the order they were created.
    public var uploads: [Upload] {
        state.withLock { state in state.order.compactMap { state.uploads[$0] } }
    }

    /// Every byte a `PATCH` (or a file sent whole) brought, kept or not: what an upload cost in all.
    public var bytesReceived: Int64 {
        state.withLock { $0.received }
    }

    /// The method of each request answered, in order (`POST`, `HEAD`, `PATCH`).
    public var methods: [String] {
        state.withLock { $0.methods }
    }

    /// The next `PATCH` keeps only its first `bytes` bytes, then the connection is reset: a
    /// connection broken mid-piece.
    public func cutNextPatch(keeping bytes: Int) {
        state.withLock { $0.cut = bytes }
    }

    /// The next `PATCH` is answered `reply`, without applying it (a `500`, a wrong offset).
    public func answerNextPatch(_ reply: TestHTTPServer.Reply) {
        state.withLock { $0.nextPatchReply = reply }
    }

    /// The upload `id` is forgotten: asked for again, it is `404`.
    public func forget(_ id: String) {
        state.withLock { state in
            state.uploads[id] = nil
            state.order.removeAll { $0 == id }
        }
    }

    /// Answers an upload request, or `nil` for a path that is not the uploads'.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply, or `nil`.
    public func respond(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply? {
        let segments = request.path.split(separator: "?").first.map { $0.split(separator: "/") } ?? []
        guard segments.first.map(String.init) == path, segments.count <= 2 else { return nil }
        let id = segments.count == 2 ? String(segments[1]) : nil
        return state.withLock { state -> TestHTTPServer.Reply in
            state.methods.append(request.method)
            let whole =
                (request.method, id == nil) == ("POST", true) || (request.method, id == nil) == ("PUT", false)
            if whole, request.headers["tus-resumable"] == nil { return takeWhole(request, id, &state) }
            if !["OPTIONS", "GET"].contains(request.method),
                request.headers["tus-resumable"] != FileUploader.version
            {
                return Self.answer(412, ["Tus-Version": FileUploader.version])
            }
            switch (request.method, id) {
            case ("OPTIONS", nil):
                return Self.answer(
                    204,
                    [
                        "Tus-Version": FileUploader.version, "Tus-Extension": "creation",
                        "Tus-Max-Size": String(maximumSize),
                    ])
            case ("POST", nil): return create(request, &state)
            case ("HEAD", let id?):
                guard let upload = state.uploads[id] else { return Self.answer(404) }
                return Self.answer(
                    200,
                    [
                        "Upload-Offset": String(upload.offset), "Upload-Length": String(upload.length),
                        "Cache-Control": "no-store",
                    ])
            case ("PATCH", let id?): return patch(id, request, &state)
            case ("GET", let id?): return download(id, request, state)
            default: return Self.answer(405)
            }
        }
    }

    /// `TestHTTPServer`'s responder for a server of uploads alone: `404` for any other path.
    public var responder: TestHTTPServer.Responder {
        { [self] request in respond(request) ?? Self.answer(404) }
    }

    private func create(_ request: TestHTTPServer.Request, _ state: inout State) -> TestHTTPServer.Reply {
        if let key = request.headers["idempotency-key"], let id = state.byKey[key], state.uploads[id] != nil {
            return Self.answer(201, ["Location": "/\(path)/\(id)"])
        }
        guard let field = request.headers["upload-length"], let length = Int64(field), length >= 0 else {
            return Self.answer(400, body: "Upload-Length is missing")
        }
        guard length <= maximumSize else { return Self.answer(413, body: "larger than \(maximumSize) bytes") }
        let id = "upload-\(state.nextID)"
        state.nextID += 1
        var upload = Upload(
            id: id, length: length, offset: 0, metadata: Self.metadata(request.headers["upload-metadata"]),
            sha256: nil, bytes: Data())
        if length == 0 { upload.sha256 = upload.hash.finalizedHex() }
        state.uploads[id] = upload
        state.order.append(id)
        if let key = request.headers["idempotency-key"] { state.byKey[key] = id }
        return Self.answer(201, ["Location": "/\(path)/\(id)"])
    }

    /// A file sent whole, as one `POST` to the path or `PUT` to `/<path>/<id>`: kept under its
    /// `Idempotency-Key` (the same key again gets the same upload), named by its
    /// `Content-Disposition`, checked against its `Repr-Digest` (`400` when they differ).
    private func takeWhole(_ request: TestHTTPServer.Request, _ id: String?, _ state: inout State)
        -> TestHTTPServer.Reply
    {
        let body = request.body
        state.received += Int64(body.count)
        let key = request.headers["idempotency-key"]
        if let key, let id = state.byKey[key], state.uploads[id] != nil {
            return Self.answer(201, ["Location": "/\(path)/\(id)"])
        }
        guard Int64(body.count) <= maximumSize else {
            return Self.answer(413, body: "larger than \(maximumSize) bytes")
        }
        var hash = SHA256()
        body.withUnsafeBytes { hash.update($0) }
        let sha256 = hash.finalizedHex()
        let digest = request.headers["repr-digest"]
        if let digest, digest != "sha-256=:\(Data(SHA256.bytes(ofHex: sha256)).base64EncodedString()):" {
            return Self.answer(400, body: "the body does not match its Repr-Digest")
        }
        let made = id ?? "upload-\(state.nextID)"
        if id == nil { state.nextID += 1 }
        var metadata = ["filetype": request.headers["content-type"] ?? "application/octet-stream"]
        metadata["filename"] = Self.filename(request.headers["content-disposition"])
        if digest != nil { metadata["sha256"] = sha256 }
        state.uploads[made] = Upload(
            id: made, length: Int64(body.count), offset: Int64(body.count), metadata: metadata,
            sha256: sha256,
            bytes: keepsBytes ? body : Data())
        if !state.order.contains(made) { state.order.append(made) }
        if let key { state.byKey[key] = made }
        return Self.answer(201, ["Location": "/\(path)/\(made)"])
    }

    /// The name a `Content-Disposition` gives: its `filename*` (UTF-8, RFC 8187), else its
    /// `filename`.
    static func filename(_ field: String?) -> String? {
        let parameters = (field ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        if let extended = parameters.first(where: { $0.hasPrefix("filename*=UTF-8''") }) {
            return String(extended.dropFirst("filename*=UTF-8''".count)).removingPercentEncoding
        }
        return parameters.first { $0.hasPrefix("filename=") }.map {
            String($0.dropFirst("filename=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }

    private func patch(_ id: String, _ request: TestHTTPServer.Request, _ state: inout State)
        -> TestHTTPServer.Reply
    {
        guard var upload = state.uploads[id] else { return Self.answer(404) }
        if let reply = state.nextPatchReply {
            state.nextPatchReply = nil
            return reply
        }
        guard request.headers["content-type"] == "application/offset+octet-stream" else {
            return Self.answer(415)
        }
        guard let field = request.headers["upload-offset"], let offset = Int64(field), offset == upload.offset
        else {
            return Self.answer(409, ["Upload-Offset": String(upload.offset)])
        }
        var piece = request.body
        state.received += Int64(piece.count)
        guard upload.offset + Int64(piece.count) <= upload.length else {
            return Self.answer(400, body: "past Upload-Length")
        }
        let cut = state.cut
        if let cut {
            state.cut = nil
            piece = piece.prefix(cut)
        }
        piece.withUnsafeBytes { upload.hash.update($0) }
        if keepsBytes { upload.bytes.append(piece) }
        upload.offset += Int64(piece.count)
        if upload.offset == upload.length { upload.sha256 = upload.hash.finalizedHex() }
        state.uploads[id] = upload
        if cut != nil { return .reset }
        return Self.answer(204, ["Upload-Offset": String(upload.offset)])
    }

    /// `GET /<path>/<id>`: the bytes of a complete upload, or the piece a `Range: bytes=A-B` asks
    /// for (`206` with `Content-Range`; `416` past the end), as RFC 9110 (section 14) has it.
    private func download(_ id: String, _ request: TestHTTPServer.Request, _ state: State)
        -> TestHTTPServer.Reply
    {
        guard let upload = state.uploads[id], upload.sha256 != nil, keepsBytes else {
            return Self.answer(404)
        }
        let type = upload.metadata["filetype"] ?? "application/octet-stream"
        let total = upload.bytes.count
        guard let range = request.headers["range"], range.hasPrefix("bytes="),
            let dash = range.firstIndex(of: "-"),
            let first = Int(range[range.index(range.startIndex, offsetBy: 6)..<dash])
        else { return .bytes(200, body: upload.bytes, contentType: type) }
        let last = min(Int(range[range.index(after: dash)...]) ?? (total - 1), total - 1)
        guard first < total, first <= last else {
            return .bytes(416, body: Data(), headers: ["Content-Range": "bytes */\(total)"])
        }
        return .bytes(
            206, body: upload.bytes.subdata(in: first..<(last + 1)), contentType: type,
            headers: ["Content-Range": "bytes \(first)-\(last)/\(total)"])
    }

    /// An answer with the protocol's version and `fields`.
    private static func answer(_ status: Int, _ fields: [String: String] = [:], body: String = "")
        -> TestHTTPServer.Reply
    {
        var headers = fields
        headers["Tus-Resumable"] = FileUploader.version
        return .status(status, body: body, contentType: "text/plain", headers: headers)
    }

    /// `Upload-Metadata`'s pairs, `key base64,key base64`, decoded.
    static func metadata(_ field: String?) -> [String: String] {
        var pairs: [String: String] = [:]
        for pair in (field ?? "").split(separator: ",") {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            guard let key = parts.first else { continue }
            let value = parts.count == 2 ? Data(base64Encoded: String(parts[1])) : Data()
            pairs[String(key)] = value.map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return pairs
    }
}
