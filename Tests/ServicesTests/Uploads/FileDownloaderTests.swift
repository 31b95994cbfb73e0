import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// `FileDownloader` against the loopback tus server's `GET`: pieces asked by `Range`, the bytes
/// kept only when their SHA-256 is the one expected.
@Suite("File downloader")
struct FileDownloaderTests {
    let folder = TemporaryFolder("FileDownloaderTests")
    let bytes = Data((0..<9_500).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    var files: KeptFiles { KeptFiles(folder: folder.file("Files")) }

    /// What the folder holds, by name.
    func held() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.file("Files").path)) ?? []).sorted()
    }

    /// An upload of `bytes` the API holds whole, and the server serving it.
    func served() async throws -> (TestUploadAPI, TestHTTPServer, URL, String) {
        let uploads = TestUploadAPI()
        let server = try TestHTTPServer(responder: uploads.responder)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try bytes.write(to: folder.file("original"))
        let kept = try KeptFiles(folder: folder.file("Sent")).keep(copyOf: folder.file("original"))
        let client = APIClient(baseURL: server.baseURL, timeout: 900, retry: .never)
        let uploaded = try #require(
            await PromiseExpectations.value(
                of: FileUploader(client: client).upload(
                    kept, name: "a", contentType: "image/png", idempotencyKey: "k")))
        return (uploads, server, uploaded.location, kept.sha256)
    }

    @Test("a file comes in pieces asked by Range, and is kept under its digest")
    func inPieces() async throws {
        // Given
        let (_, server, location, sha256) = try await served()
        let before = server.requests.count
        // When
        let kept = await PromiseExpectations.value(
            of: FileDownloader(client: APIClient(baseURL: server.baseURL, timeout: 900), chunkSize: 1_055)
                .download(location, sha256: sha256, into: files))
        // Then: nine pieces of exactly 1,055 bytes leave 5 for a tenth (a byte more each would not)
        #expect(kept?.sha256 == sha256 && kept?.size == 9_500)
        #expect(try kept.map { try Data(contentsOf: $0.url) } == bytes)
        #expect(server.requests.dropFirst(before).count == 10)
        #expect(held() == [sha256])
    }

    @Test("a file kept here already is given as it is, without asking the API")
    func keptAlready() async throws {
        // Given: the file downloaded once
        let (_, server, location, sha256) = try await served()
        let downloader = FileDownloader(client: APIClient(baseURL: server.baseURL, timeout: 900))
        _ = await PromiseExpectations.value(of: downloader.download(location, sha256: sha256, into: files))
        let before = server.requests.count
        // When
        let again = await PromiseExpectations.value(
            of: downloader.download(location, sha256: sha256, into: files))
        // Then
        #expect(again?.sha256 == sha256 && server.requests.count == before)
    }

    @Test("bytes that are not the file expected are refused, and nothing is kept")
    func checksumMismatch() async throws {
        // Given
        let (_, server, location, _) = try await served()
        let wrong = String(repeating: "0", count: 64)
        // When
        let error = await PromiseExpectations.error(
            of: FileDownloader(client: APIClient(baseURL: server.baseURL, timeout: 900), chunkSize: 4_000)
                .download(location, sha256: wrong, into: files))
        // Then
        guard case .checksumMismatch(let expected, let received)? = error as? DownloadError else {
            Issue.record("expected a checksum mismatch, got \(String(describing: error))")
            return
        }
        #expect(expected == wrong)
        #expect(
            (error as? DownloadError)?.description
                == "the file that came is not the one expected (SHA-256 \(received), not \(wrong)); nothing was kept"
        )
        #expect(held() == [])
    }

    @Test("an API that ignores Range sends the file whole, which is kept as well")
    func withoutRanges() async throws {
        // Given: a server answering every GET with the whole file, 200
        let server = try TestHTTPServer { [bytes] _ in .bytes(200, body: bytes) }
        // When
        let kept = await PromiseExpectations.value(
            of: FileDownloader(client: APIClient(baseURL: server.baseURL, timeout: 900), chunkSize: 1_000)
                .download(
                    server.baseURL.appendingPathComponent("f"), sha256: SHA256.hex(of: bytes), into: files))
        // Then
        #expect(kept?.size == 9_500)
        #expect(server.requests.count == 1)
    }

    @Test("offline, the download fails with the client's error and keeps nothing")
    func offline() async throws {
        // Given: an address nothing answers
        let closed = try ClosedPort()
        let client = APIClient(baseURL: closed.baseURL, timeout: 900, retry: .never)
        // When
        let error = await PromiseExpectations.error(
            of: FileDownloader(client: client).download(
                closed.baseURL.appendingPathComponent("uploads/x"), sha256: String(repeating: "a", count: 64),
                into: files))
        // Then
        #expect(FailureClass(try #require(error)).kind == .offline)
        #expect(held() == [])
    }
}
