import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// `FileUploader` with `.singleRequest`: the whole file as the body of one `POST` or `PUT`, read
/// from disk as it goes, against the loopback API (`TestUploadAPI` takes files whole too).
@Suite("Whole-file upload")
struct WholeFileUploadTests {
    let folder = TemporaryFolder("WholeFileUploadTests")
    let uploads = TestUploadAPI()
    let file: KeptFile
    let progress = DeliveryRecorder<Int64>()

    init() throws {
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let original = folder.file("Reçu März.pdf")
        try Data((0..<9_500).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: original)
        file = try KeptFiles(folder: folder.file("Files")).keep(copyOf: original)
    }

    /// An uploader of whole files by `method` to `server`, with a timeout only a hang reaches.
    func uploader(_ method: HTTPMethod, _ server: TestHTTPServer) -> FileUploader {
        FileUploader(
            client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never), chunkSize: 1_000,
            style: .singleRequest(method))
    }

    func upload(_ uploader: FileUploader, key: String = "key-1") -> Promise<UploadedFile> {
        let progress = progress
        return uploader.upload(
            file, name: "Reçu März.pdf", contentType: "application/pdf", idempotencyKey: key,
            progress: { progress.record($0) })
    }

    @Test("a POST carries the file whole, with its type, name and digest, and names the API's upload")
    func postedWhole() async throws {
        // Given
        let server = try TestHTTPServer(responder: uploads.responder)
        // When
        let uploaded = try #require(await PromiseExpectations.value(of: upload(uploader(.post, server))))
        // Then
        let held = try #require(uploads.uploads.first)
        #expect(uploads.methods == ["POST"] && uploads.uploads.count == 1)
        #expect(held.bytes == (try Data(contentsOf: file.url)) && held.sha256 == file.sha256)
        #expect(
            held.metadata == [
                "filename": "Reçu März.pdf", "filetype": "application/pdf", "sha256": file.sha256,
            ])
        #expect(uploaded.id == held.id && uploaded.size == 9_500)
        #expect(progress.all.first == 0 && progress.all.last == 9_500)
        #expect(progress.all == progress.all.sorted())
    }

    @Test(
        "of the amounts the platform reports, one a piece's worth after the last is told, and the whole once")
    func progressSteps() {
        // Given: 1 MB, told every 100,000 bytes
        let steps = ProgressSteps(size: 1_000_000, step: 100_000)

        // When: the platform reports every 30,000 bytes, then the whole twice
        let reported = Array(stride(from: Int64(30_000), to: 1_000_000, by: 30_000)) + [1_000_000, 1_000_000]
        let told = reported.filter { steps.due($0) }

        // Then
        #expect(told == [120_000, 240_000, 360_000, 480_000, 600_000, 720_000, 840_000, 960_000, 1_000_000])
    }

    @Test(
        "progress is heard as the file goes, a piece's worth apart, each amount once, ending with the whole")
    func progressAsItGoes() async throws {
        // Given: a file of 1 MB, progress heard every 100,000 bytes
        let server = try TestHTTPServer(responder: uploads.responder)
        let original = folder.file("scan.tiff")
        try Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }).write(to: original)
        let large = try KeptFiles(folder: folder.file("Files")).keep(copyOf: original)
        let uploader = FileUploader(
            client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never), chunkSize: 100_000,
            style: .singleRequest(.post))
        // When
        let progress = progress
        _ = await PromiseExpectations.value(
            of: uploader.upload(
                large, name: "scan.tiff", contentType: "image/tiff", idempotencyKey: "key-2",
                progress: { progress.record($0) }))
        // Then
        // (how many amounts are heard is the platform's: it may report the whole file at once, as
        // FoundationNetworking did in 2 of 3 runs beside other suites, and in none of 6 alone)
        let heard = progress.all
        #expect(heard.first == 0 && heard.last == 1_000_000, "\(heard)")
        #expect(zip(heard, heard.dropFirst()).dropLast().allSatisfy { $1 - $0 >= 100_000 }, "\(heard)")
        #expect(zip(heard, heard.dropFirst()).allSatisfy { $0 < $1 }, "\(heard)")
    }

    @Test("a PUT goes to the upload's own URL, named by its key, which the record then names")
    func putAtItsKey() async throws {
        // Given
        let server = try TestHTTPServer(responder: uploads.responder)
        // When
        let uploaded = try #require(await PromiseExpectations.value(of: upload(uploader(.put, server))))
        // Then
        #expect(uploads.methods == ["PUT"])
        #expect(uploaded.id == "key-1" && uploads.uploads.map(\.id) == ["key-1"])
        #expect(uploads.uploads.first?.sha256 == file.sha256)
    }

    @Test("a failed attempt sends the whole file again under the same key, and the API holds one upload")
    func failedAttemptSentAgain() async throws {
        // Given: an API whose first answer is lost after it took the file
        let lost = Locked(true)
        let server = try TestHTTPServer(responder: { [uploads] request in
            let reply = uploads.responder(request)
            return lost.withLock { lost in
                defer { lost = false }
                return lost
            } ? .reset : reply
        })
        let uploader = uploader(.post, server)
        let error = await PromiseExpectations.error(of: upload(uploader))
        #expect(FailureClass(try #require(error)).kind == .offline)
        // When
        let uploaded = await PromiseExpectations.value(of: upload(uploader))
        // Then
        #expect(uploads.methods == ["POST", "POST"])
        #expect(uploads.bytesReceived == 2 * 9_500)
        #expect(uploads.uploads.count == 1 && uploaded?.id == uploads.uploads.first?.id)
    }

    @Test("a file that no longer matches its digest is refused with the API's reason, and nothing is kept")
    func changedFileRefused() async throws {
        // Given: the kept copy changed under the kit, its size the same
        let server = try TestHTTPServer(responder: uploads.responder)
        try Data(repeating: 1, count: 9_500).write(to: file.url)
        // When
        let error = await PromiseExpectations.error(of: upload(uploader(.post, server)))
        // Then
        #expect(
            error as? UploadError == .refused(status: 400, reason: "the body does not match its Repr-Digest"))
        #expect(uploads.uploads.isEmpty)
    }

    @Test("a POST answered without a Location cannot name the upload: it rejects with why")
    func noLocation() async throws {
        // Given
        let server = try TestHTTPServer(responder: { _ in .status(201, body: "", contentType: "text/plain") })
        // When
        let error = await PromiseExpectations.error(of: upload(uploader(.post, server)))
        // Then
        #expect(error as? UploadError == .notResumable(reason: "the upload's answer has no Location"))
    }

    @Test("a name in any script goes as RFC 6266 writes it, and a plain one also as filename")
    func dispositionOfNames() {
        #expect(
            WholeFileTransfer.disposition("Reçu März.pdf")
                == "attachment; filename*=UTF-8''Re%C3%A7u%20M%C3%A4rz.pdf")
        #expect(
            WholeFileTransfer.disposition("Zoe-2019.pdf")
                == "attachment; filename=\"Zoe-2019.pdf\"; filename*=UTF-8''Zoe-2019.pdf")
        for unquotable in ["a\"b.pdf", "a\\b.pdf", "a\u{7F}b.pdf", "a\u{1F}b.pdf"] {
            #expect(!WholeFileTransfer.disposition(unquotable).contains("filename=\""), "\(unquotable)")
        }
        #expect(
            WholeFileTransfer.disposition("receipt 1.pdf")
                == "attachment; filename=\"receipt 1.pdf\"; filename*=UTF-8''receipt%201.pdf")
    }
}
