import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// `FileUploader` against the loopback tus server (`TestUploadAPI`): pieces streamed from the kept
/// file, and every failure costing a `HEAD` and the piece in flight, never the whole file.
@Suite("File uploader")
struct FileUploaderTests {
    let folder = TemporaryFolder("FileUploaderTests")
    let uploads = TestUploadAPI()
    let server: TestHTTPServer
    /// Pieces of 1,000 bytes: a file of 9,500 bytes goes in ten.
    let uploader: FileUploader
    let file: KeptFile
    let progress = DeliveryRecorder<Int64>()

    init() throws {
        server = try TestHTTPServer(responder: uploads.responder)
        // A timeout only a hang reaches: a loaded run (ThreadSanitizer) is slow, never stuck.
        uploader = FileUploader(
            client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never), chunkSize: 1_000)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let original = folder.file("receipt.pdf")
        try Data((0..<9_500).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: original)
        file = try KeptFiles(folder: folder.file("Files")).keep(copyOf: original)
    }

    func upload(resuming location: URL? = nil, created: Locked<[URL]> = Locked([])) -> Promise<UploadedFile> {
        let progress = progress
        return uploader.upload(
            file, name: "receipt.pdf", contentType: "application/pdf", idempotencyKey: "key-1",
            resuming: location, created: { url in created.withLock { $0.append(url) } },
            progress: { progress.record($0) })
    }

    /// A tus `204` saying the upload holds `offset` bytes, whatever the piece brought.
    static func accepted(offset: Int64) -> TestHTTPServer.Reply {
        .status(
            204, body: "", contentType: "text/plain",
            headers: ["Upload-Offset": String(offset), "Tus-Resumable": FileUploader.version])
    }

    @Test("a file goes as one creation and a PATCH a piece, and the API holds its bytes whole")
    func wholeUpload() async throws {
        // Given
        let created = Locked<[URL]>([])
        // When
        let uploaded = try #require(await PromiseExpectations.value(of: upload(created: created)))
        // Then
        let held = try #require(uploads.uploads.first)
        #expect(uploads.uploads.count == 1)
        let bytes = try Data(contentsOf: file.url)
        #expect(held.sha256 == file.sha256 && held.bytes == bytes)
        #expect(
            held.metadata == [
                "filename": "receipt.pdf", "filetype": "application/pdf", "sha256": file.sha256,
            ])
        #expect(uploads.methods == ["POST"] + Array(repeating: "PATCH", count: 10))
        #expect(uploaded.id == held.id && uploaded.size == 9_500)
        #expect(created.withLock { $0 } == [uploaded.location])
        #expect(progress.all == [0, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000, 9_500])
    }

    @Test("a connection broken mid-piece costs a HEAD and the rest of that piece, never the whole file")
    func brokenConnection() async throws {
        // Given: the first piece cut after 300 of its bytes, as a server that kept them sees it
        uploads.cutNextPatch(keeping: 300)
        // When
        let uploaded = await PromiseExpectations.value(of: upload())
        // Then
        #expect(uploaded?.size == 9_500)
        #expect(uploads.uploads.first?.sha256 == file.sha256)
        #expect(Array(uploads.methods.prefix(4)) == ["POST", "PATCH", "HEAD", "PATCH"])
        #expect(uploads.bytesReceived <= 9_500 + 1_000)
        #expect(progress.all.prefix(3) == [0, 300, 1_300])
    }

    @Test("a 5xx or a 409 on a piece costs a HEAD, and the upload goes on from the API's offset")
    func serverTroubleAndConflict() async throws {
        for fault: TestHTTPServer.Reply in [.status(500, body: "down"), .status(409, body: "")] {
            // Given
            let uploads = TestUploadAPI()
            let server = try TestHTTPServer(responder: uploads.responder)
            let uploader = FileUploader(
                client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never), chunkSize: 1_000)
            uploads.answerNextPatch(fault)
            // When
            let uploaded = await PromiseExpectations.value(
                of: uploader.upload(file, name: "a", contentType: "text/plain", idempotencyKey: "k"))
            // Then
            #expect(uploaded?.size == 9_500)
            #expect(Array(uploads.methods.prefix(4)) == ["POST", "PATCH", "HEAD", "PATCH"], "\(fault)")
            #expect(uploads.methods.count == 13, "a creation, a failed piece, a HEAD and ten pieces")
            #expect(uploads.uploads.first?.sha256 == file.sha256)
        }
    }

    @Test("an offset beyond what was sent is the API's fault: the upload stops with it")
    func offsetBeyondSent() async throws {
        // Given: a first piece of 1,000 bytes answered with an offset of 1,500
        uploads.answerNextPatch(Self.accepted(offset: 1_500))
        // When
        let error = await PromiseExpectations.error(of: upload())
        // Then
        #expect(error as? UploadError == .offsetBeyondSent(offset: 1_500, sent: 1_000))
        #expect(uploads.methods == ["POST", "PATCH"])
    }

    @Test("a piece answered 204 without moving the offset on is asked about with HEAD, as a failure is")
    func noProgressAskedAbout() async throws {
        // Given: the first piece answered 204 at the offset it started from
        uploads.answerNextPatch(Self.accepted(offset: 0))
        // When
        let uploaded = await PromiseExpectations.value(of: upload())
        // Then
        #expect(uploaded?.size == 9_500 && uploads.uploads.first?.sha256 == file.sha256)
        #expect(Array(uploads.methods.prefix(4)) == ["POST", "PATCH", "HEAD", "PATCH"])
    }

    @Test(
        "three failures in a row without progress reject with the last; a later attempt resumes where the API stands"
    )
    func resumedByALaterAttempt() async throws {
        // Given: an upload that sent four pieces, then met a server failing its fifth again and again
        let created = Locked<[URL]>([])
        let failing = Locked(true)
        let server = try TestHTTPServer(responder: { [uploads] request in
            let down = request.method == "PATCH" && request.headers["upload-offset"] == "4000"
            return down && failing.withLock({ $0 }) ? .status(503, body: "down") : uploads.responder(request)
        })
        let client = APIClient(baseURL: server.baseURL, timeout: 900, retry: .never)
        let first = FileUploader(client: client, chunkSize: 1_000).upload(
            file, name: "a", contentType: "text/plain", idempotencyKey: "k",
            created: { url in created.withLock { $0.append(url) } })
        let error = await PromiseExpectations.error(of: first)
        #expect(FailureClass(try #require(error)).status == 503)
        // (the fifth piece's three tries never reached the uploads: a HEAD came between them)
        #expect(uploads.methods == ["POST"] + Array(repeating: "PATCH", count: 4) + ["HEAD", "HEAD"])
        let location = try #require(created.withLock { $0.first })
        // When: the next process resumes it from the location it kept
        failing.withLock { $0 = false }
        let before = uploads.methods.count
        let uploaded = await PromiseExpectations.value(
            of: FileUploader(client: client, chunkSize: 1_000).upload(
                file, name: "a", contentType: "text/plain", idempotencyKey: "k", resuming: location))
        // Then: a HEAD, then the six pieces left
        #expect(uploaded?.location == location)
        #expect(Array(uploads.methods.dropFirst(before)) == ["HEAD"] + Array(repeating: "PATCH", count: 6))
        #expect(uploads.bytesReceived == 9_500)
        #expect(uploads.uploads.count == 1 && uploads.uploads.first?.sha256 == file.sha256)
    }

    @Test("an upload the API no longer has is created anew, once")
    func forgottenUpload() async throws {
        // Given: an upload begun, then forgotten by the API
        let created = Locked<[URL]>([])
        _ = await PromiseExpectations.value(of: upload(created: created))
        let location = try #require(created.withLock { $0.first })
        uploads.forget(location.lastPathComponent)
        // When
        let uploaded = await PromiseExpectations.value(
            of: uploader.upload(
                file, name: "a", contentType: "text/plain", idempotencyKey: "another key", resuming: location)
        )
        // Then
        #expect(uploaded != nil && uploaded?.location != location)
        #expect(uploads.uploads.count == 1 && uploads.uploads.first?.sha256 == file.sha256)
    }

    @Test("a refused file (413, 415, 400) rejects with the API's status and reason")
    func refused() async throws {
        // Given: a server that takes 1,000 bytes at most
        let small = TestUploadAPI(maximumSize: 1_000)
        let server = try TestHTTPServer(responder: small.responder)
        let uploader = FileUploader(client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never))
        // When
        let error = await PromiseExpectations.error(
            of: uploader.upload(file, name: "a", contentType: "text/plain", idempotencyKey: "k"))
        // Then
        #expect(error as? UploadError == .refused(status: 413, reason: "larger than 1000 bytes"))
        #expect(small.uploads.isEmpty)
    }

    @Test("a creation sent again with its idempotency key makes no second upload")
    func sameKeyOneUpload() async throws {
        // Given
        _ = await PromiseExpectations.value(of: upload())
        // When
        let again = await PromiseExpectations.value(of: upload())
        // Then
        #expect(uploads.uploads.count == 1)
        #expect(again?.id == uploads.uploads.first?.id)
    }

    @Test("an API that loses every upload gets one new creation, then the upload rejects with its 404")
    func lostAgainRejects() async throws {
        // Given: an API whose every PATCH answers 404, as if the upload were gone
        let server = try TestHTTPServer(responder: { [uploads] request in
            request.method == "PATCH" ? .status(404, body: "gone") : uploads.responder(request)
        })
        let uploader = FileUploader(client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never))
        // When
        let error = await PromiseExpectations.error(
            of: uploader.upload(file, name: "a", contentType: "text/plain", idempotencyKey: "k"))
        // Then: two creations (the first, and one anew), then the 404
        #expect(FailureClass(try #require(error)).status == 404)
        #expect(uploads.methods.filter { $0 == "POST" }.count == 2)
    }

    @Test("a HEAD saying the API holds more than the whole file is the API's fault: the upload stops")
    func headBeyondTheFile() async throws {
        // Given: a first piece failing with a 500, and a HEAD then answering 20,000 bytes held
        uploads.answerNextPatch(.status(500, body: "down"))
        let server = try TestHTTPServer(responder: { [uploads] request in
            guard request.method == "HEAD" else { return uploads.responder(request) }
            return .status(
                200, body: "", contentType: "text/plain",
                headers: ["Upload-Offset": "20000", "Upload-Length": "9500", "Tus-Resumable": "1.0.0"])
        })
        let uploader = FileUploader(
            client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never), chunkSize: 1_000)
        // When
        let error = await PromiseExpectations.error(
            of: uploader.upload(file, name: "a", contentType: "text/plain", idempotencyKey: "k"))
        // Then
        #expect(error as? UploadError == .offsetBeyondSent(offset: 20_000, sent: 9_500))
    }

    @Test("a kept file gone or cut short is unreadable: nothing more is sent, never a short file")
    func keptFileDamaged() async throws {
        // Given: the kept copy cut to 2,500 bytes, then (a second upload) removed
        let bytes = try Data(contentsOf: file.url)
        try bytes.prefix(2_500).write(to: file.url)
        // When
        let short = await PromiseExpectations.error(of: upload())
        try FileManager.default.removeItem(at: file.url)
        let gone = await PromiseExpectations.error(
            of: uploader.upload(file, name: "a", contentType: "text/plain", idempotencyKey: "other"))
        // Then
        guard case .fileUnreadable(_, let cut)? = short as? UploadError,
            case .fileUnreadable(_, let missing)? = gone as? UploadError
        else {
            Issue.record("\(String(describing: short)), \(String(describing: gone))")
            return
        }
        #expect(cut == "it is shorter than the 9500 bytes kept")
        #expect(missing.contains("No such file or directory"), "\(missing)")
        #expect(uploads.bytesReceived == 2_000)
    }
}
