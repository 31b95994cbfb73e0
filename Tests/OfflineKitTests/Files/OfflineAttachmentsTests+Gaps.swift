import Foundation
import OfflineKit
import PromiseMVPTesting
import Promises
import Services
import Testing

/// The rules of `OfflineAttachments` no other test weighed (found by the mutation run of
/// `Sources/OfflineKit/Files/`): where an in-memory database keeps its files, what a failed attach
/// leaves, when an upload counts as under way, reading one's own file offline, and the claim a
/// long upload keeps.
@Suite("Offline attachments: gaps")
struct OfflineAttachmentsGapsTests {
    let base = OfflineAttachmentsTests()

    /// A server for the uploads of `api` that answers a `PATCH` at `offset` with `503`.
    func failing(at offset: Int, _ api: OfflineAttachmentsTests.API) throws -> TestHTTPServer {
        try TestHTTPServer { request in
            request.method == "PATCH" && request.headers["upload-offset"] == String(offset)
                ? .status(503, body: "down") : (api.uploads.respond(request) ?? .status(404, body: ""))
        }
    }

    @Test("a database in memory keeps its files in a temporary folder of its own, never the current one")
    func inMemoryFolder() async throws {
        // Given: two apps' attachments on databases in memory
        let client = APIClient(baseURL: try ClosedPort().baseURL, timeout: 900, retry: .never)
        let first = OfflineAttachments(database: try Database.inMemory(), client: client)
        let second = OfflineAttachments(database: try Database.inMemory(), client: client)
        defer {
            for files in [first, second] { try? FileManager.default.removeItem(at: files.files.folder) }
        }
        // When: a file is attached to the first
        let attached = await PromiseExpectations.value(
            of: first.attach(fileAt: try base.photo(), contentType: "image/jpeg"))
        // Then: it is kept in a folder of the temporary directory, one for each database
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        for files in [first, second] {
            #expect(files.files.folder.standardizedFileURL.path.hasPrefix(temporary + "/Attachments-"))
        }
        #expect(first.files.folder != second.files.folder)
        let kept = try #require(attached.flatMap(first.keptFile(of:)))
        #expect(kept.url.standardizedFileURL.path.hasPrefix(first.files.folder.standardizedFileURL.path))
    }

    @Test(
        "an attach whose row cannot be written removes its copy, unless another attachment keeps the same bytes"
    )
    func refusedAttachLeavesNoCopy() async throws {
        // Given: one photo attached, and a database that refuses any attachment named refused.jpg
        let api = try OfflineAttachmentsTests.API()
        let device = try OfflineAttachmentsTests.Device(base.databaseFile, api, online: false)
        let kept = try #require(
            await PromiseExpectations.value(
                of: device.files.attach(fileAt: try base.photo(), contentType: "image/jpeg")))
        _ = await PromiseExpectations.value(
            of: try Database(at: base.databaseFile).write { connection in
                try connection.execute(
                    """
                    CREATE TRIGGER refuse_named BEFORE INSERT ON offline_attachments
                    WHEN NEW.name = 'refused.jpg' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                    """)
            })
        // When: the same bytes are attached under that name, then other bytes
        let same = try base.photo("refused.jpg")
        let sameError = await PromiseExpectations.error(
            of: device.files.attach(fileAt: same, contentType: "image/jpeg"))
        let other = try base.photo("refused.jpg", bytes: 4_000)
        let otherError = await PromiseExpectations.error(
            of: device.files.attach(fileAt: other, contentType: "image/jpeg"))
        // Then: both refused; the first photo's copy stays, the other bytes' copy is gone
        #expect("\(sameError.map(String.init(describing:)) ?? "")".contains("refused by the test"))
        #expect(otherError != nil)
        #expect(device.files.keptFile(of: kept) != nil)
        let folder = try FileManager.default.contentsOfDirectory(atPath: device.files.files.folder.path)
        #expect(folder.filter { !$0.hasPrefix(".") } == [kept.sha256])
        #expect(await PromiseExpectations.value(of: device.files.outbox.entries())?.count == 1)
    }

    @Test("an upload the API made but took no byte of is under way at 0, not waiting")
    func uploadingAtZero() async throws {
        // Given: an API that makes the upload, then fails its first piece
        let api = try OfflineAttachmentsTests.API()
        let server = try failing(at: 0, api)
        let files = OfflineAttachments(
            database: try Database(at: base.databaseFile),
            client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never), chunkSize: 1_000)
        let attached = try #require(
            await PromiseExpectations.value(
                of: files.attach(fileAt: try base.photo(), contentType: "image/jpeg")))
        // When
        let report = await PromiseExpectations.value(of: files.sync())
        // Then
        #expect(report?.waiting == 1 && api.uploads.uploads.count == 1)
        #expect(
            await PromiseExpectations.value(of: files.state(of: attached.id))
                == .uploading(sent: 0, of: 9_500))
    }

    @Test("the device that attached a file reads its own copy with no request, even offline")
    func ownFileOffline() async throws {
        // Given: a photo attached on a device whose API cannot be reached
        let files = OfflineAttachments(
            database: try Database(at: base.databaseFile),
            client: APIClient(baseURL: try ClosedPort().baseURL, timeout: 900, retry: .never))
        let original = try base.photo()
        let attached = try #require(
            await PromiseExpectations.value(of: files.attach(fileAt: original, contentType: "image/jpeg")))
        // When
        let url = await PromiseExpectations.value(of: files.file(for: attached))
        // Then
        #expect(try url.map { try Data(contentsOf: $0) } == Data(contentsOf: original))
        #expect(url == files.keptFile(of: attached)?.url)
    }

    @Test("a file's upload renews its sync's claim with every piece, so no other process takes it midway")
    func uploadKeepsItsClaim() async throws {
        // Given: an API that holds the fifth piece until the test has looked
        let api = try OfflineAttachmentsTests.API()
        let (arrived, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let server = try TestHTTPServer { request in
            if request.method == "PATCH" && request.headers["upload-offset"] == "4000" {
                arrived.signal()
                _ = release.wait(timeout: .now() + 900)
            }
            return api.uploads.respond(request) ?? .status(404, body: "")
        }
        let database = try Database(at: base.databaseFile)
        let files = OfflineAttachments(
            database: database, client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never),
            chunkSize: 1_000)
        _ = await PromiseExpectations.value(
            of: files.attach(fileAt: try base.photo(), contentType: "image/jpeg"))
        let beats = DeliveryRecorder<Int>()
        let handle = database.observe(tables: ["outbox_claims"], on: .inline) { connection in
            try connection.query("SELECT beat FROM outbox_claims", map: { try $0.int("beat") }).first ?? -1
        } onChange: {
            beats.record((try? $0.get()) ?? -2)
        }
        // When: the upload reaches its fifth piece
        let sync = files.sync()
        try #require(await BlockingWork.run { arrived.wait(timeout: .now() + 900) == .success })
        // Then: the claim's beat moved with the four pieces sent
        let moved = await beats.next(timeout: 900, where: { $0 >= 4 })
        release.signal()
        #expect(moved != nil)
        #expect(await PromiseExpectations.value(of: sync)?.sent.count == 1)
        handle.cancel()
    }
}

extension OfflineAttachmentsGapsTests {
    @Test("discarding removes a held upload and its file; an upload that waits or is done stays")
    func discardHeldOnly() async throws {
        // Given: an API taking files of 5,000 bytes at most; one file refused (held), one uploaded,
        // and one attached after the sync (waiting)
        let api = try OfflineAttachmentsTests.API(maximumSize: 5_000)
        let device = try OfflineAttachmentsTests.Device(base.databaseFile, api)
        let attach = { (name: String, bytes: Int) async throws -> OfflineAttachment in
            try #require(
                await PromiseExpectations.value(
                    of: device.files.attach(
                        fileAt: try base.photo(name, bytes: bytes), contentType: "image/jpeg")))
        }
        let held = try await attach("large.jpg", 9_500)
        let uploaded = try await attach("small.jpg", 4_000)
        _ = await PromiseExpectations.value(of: device.files.sync())
        let waiting = try await attach("later.jpg", 3_000)
        #expect(await PromiseExpectations.value(of: device.files.state(of: held.id)) != .waiting)

        // When
        let discarded = await PromiseExpectations.value(of: device.files.discard(id: held.id))
        let notWaiting = await PromiseExpectations.value(of: device.files.discard(id: waiting.id))
        let notUploaded = await PromiseExpectations.value(of: device.files.discard(id: uploaded.id))

        // Then: the held one is gone, row, upload and file; the others are as they were
        #expect(discarded == true && notWaiting == false && notUploaded == false)
        let states = await PromiseExpectations.value(
            of: when(fulfilled: [held, waiting, uploaded].map { device.files.state(of: $0.id) }))
        #expect(states == [.unknown, .waiting, .uploaded])
        #expect(
            [held, waiting, uploaded].map { device.files.keptFile(of: $0) != nil } == [false, true, true])
        #expect(
            await PromiseExpectations.value(of: device.files.outbox.entries())?.map(\.localID) == [waiting.id]
        )
    }
}
