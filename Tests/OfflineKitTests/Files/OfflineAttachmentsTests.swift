import Foundation
import OfflineKit
import PromiseMVPTesting
import Promises
import Services
import Testing

/// `OfflineAttachments` with a collection whose records carry files: the file kept here at once,
/// uploaded over tus before the record that names it, which goes naming the API's upload id.
@Suite("Offline attachments")
struct OfflineAttachmentsTests {
    /// An inspection with its photos.
    struct Inspection: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
        var attachments: [OfflineAttachment] = []
    }

    /// The uploads and the inspections behind one server: an inspection naming an upload the API
    /// does not hold whole is refused with `400`, as an API that checks its files does.
    final class API: Sendable {
        let uploads: TestUploadAPI
        let inspections: TestResourceAPI
        let server: TestHTTPServer

        init(maximumSize: Int64 = 1 << 30) throws {
            let uploads = TestUploadAPI(maximumSize: maximumSize)
            self.uploads = uploads
            let inspections = TestResourceAPI(collection: "inspections") { body in
                guard let inspection = try? APIClient.decode(Inspection.self, from: body) else { return nil }
                let complete = Set(uploads.uploads.filter { $0.sha256 != nil }.map(\.id))
                return inspection.attachments.allSatisfy { complete.contains($0.id) } ? body : nil
            }
            self.inspections = inspections
            server = try TestHTTPServer { request in uploads.respond(request) ?? inspections.respond(request)
            }
        }
    }

    /// One process's view of the file: its attachments and its inspections.
    struct Device {
        let database: Database
        let files: OfflineAttachments
        let inspections: OfflineCollection<Inspection>

        init(_ file: URL, _ api: API, online: Bool = true, style: FileUploader.Style = .tus) throws {
            database = try Database(at: file)
            // A timeout only a hang reaches: a loaded run (ThreadSanitizer) is slow, never stuck.
            let client = APIClient(baseURL: api.server.baseURL, timeout: 900, retry: .never)
            files = OfflineAttachments(database: database, client: client, chunkSize: 1_000, style: style)
            inspections = OfflineCollection<Inspection>(
                database: database, collection: "inspections", client: client,
                reachability: online ? .assumeReachable : ManualConnectivity(.unreachable)
            ).referencing(.attachments(\.attachments, to: files))
        }
    }

    let folder = TemporaryFolder("OfflineAttachmentsTests")
    var databaseFile: URL { folder.file("app.sqlite") }

    /// A photo of 9,500 bytes, in the user's own folder.
    func photo(_ name: String = "roof.jpg", bytes: Int = 9_500) throws -> URL {
        let photos = folder.file("Photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let url = photos.appendingPathComponent(name)
        try Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: url)
        return url
    }

    /// An inspection made offline with one photo attached; the photo's attachment.
    func inspectionWithPhoto(_ device: Device, photo: URL) async throws -> OfflineAttachment {
        let attached = try #require(
            await PromiseExpectations.value(of: device.files.attach(fileAt: photo, contentType: "image/jpeg"))
        )
        _ = await PromiseExpectations.value(
            of: device.inspections.create(Inspection(title: "Roof", attachments: [attached])))
        return attached
    }

    @Test("a record made offline with a file reaches the API after its file, naming the API's upload")
    func fileBeforeRecord() async throws {
        // Given: a photo attached offline, its original then deleted
        let api = try API()
        let device = try Device(databaseFile, api, online: false)
        let original = try photo()
        let bytes = try Data(contentsOf: original)
        let attached = try await inspectionWithPhoto(device, photo: original)
        try FileManager.default.removeItem(at: original)
        // When: the inspections go first, then the files, then the inspections again
        let early = await PromiseExpectations.value(of: device.inspections.sync())
        let waitingState = await PromiseExpectations.value(of: device.files.state(of: attached.id))
        let uploaded = await PromiseExpectations.value(of: device.files.sync())
        let late = await PromiseExpectations.value(of: device.inspections.sync())
        // Then: nothing before its file; then one upload of the same bytes, and the record naming it
        #expect(early?.sent.isEmpty == true && early?.waiting == 1)
        #expect(waitingState == .waiting)
        let upload = try #require(api.uploads.uploads.first)
        #expect(api.uploads.uploads.count == 1 && upload.bytes == bytes && upload.sha256 == attached.sha256)
        #expect(upload.metadata["filename"] == "roof.jpg" && upload.metadata["filetype"] == "image/jpeg")
        #expect(uploaded?.newIDs[attached.id] == upload.id)
        #expect(late?.sent.count == 1 && late?.waiting == 0)
        let kept = api.inspections.resources(as: Inspection.self)
        #expect(kept.map { $0.attachments.first?.id } == [upload.id])
        #expect(await PromiseExpectations.value(of: device.files.state(of: attached.id)) == .uploaded)
        let here = await PromiseExpectations.value(of: device.inspections.list(policy: .cacheOnly))
        #expect(here?.value.items.map(\.value.attachments.first?.id) == [upload.id])
    }

    @Test("an API that takes files whole gets each in one request, and the record goes naming it")
    func wholeFileBeforeRecord() async throws {
        // Given: a photo attached offline, for an API that takes files as one PUT
        let api = try API()
        let device = try Device(databaseFile, api, online: false, style: .singleRequest(.put))
        let attached = try await inspectionWithPhoto(device, photo: try photo())
        // When
        let uploaded = await PromiseExpectations.value(of: device.files.sync())
        let sent = await PromiseExpectations.value(of: device.inspections.sync())
        // Then
        #expect(api.uploads.methods == ["PUT"])
        let upload = try #require(api.uploads.uploads.first)
        #expect(upload.sha256 == attached.sha256 && uploaded?.newIDs[attached.id] == upload.id)
        #expect(sent?.sent.count == 1)
        #expect(
            api.inspections.resources(as: Inspection.self).map { $0.attachments.first?.id } == [upload.id])
    }

    @Test("an upload cut short is resumed by the next sync from where the API stands, never from the start")
    func resumedAcrossSyncs() async throws {
        // Given: an upload whose fifth piece met an API failing again and again
        let api = try API()
        let failing = Locked(true)
        let server = try TestHTTPServer { request in
            let down = request.method == "PATCH" && request.headers["upload-offset"] == "4000"
            return down && failing.withLock({ $0 })
                ? .status(503, body: "down")
                : (api.uploads.respond(request) ?? api.inspections.respond(request))
        }
        let database = try Database(at: databaseFile)
        let files = OfflineAttachments(
            database: database, client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never),
            chunkSize: 1_000)
        let attached = try #require(
            await PromiseExpectations.value(of: files.attach(fileAt: try photo(), contentType: "image/jpeg")))
        let first = await PromiseExpectations.value(of: files.sync())
        let halfway = await PromiseExpectations.value(of: files.state(of: attached.id))
        // When: a new process syncs once the API is back, after the failure's wait
        failing.withLock { $0 = false }
        let next = OfflineAttachments(
            database: try Database(at: databaseFile),
            client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never), chunkSize: 1_000,
            now: { Date().addingTimeInterval(600) })
        let second = await PromiseExpectations.value(of: next.sync())
        // Then: the first kept where the upload was; the second went on from 4,000 bytes
        #expect(first?.sent.isEmpty == true && first?.waiting == 1)
        #expect(halfway == .uploading(sent: 4_000, of: 9_500))
        #expect(second?.sent.count == 1)
        #expect(api.uploads.uploads.count == 1 && api.uploads.uploads.first?.sha256 == attached.sha256)
        #expect(api.uploads.bytesReceived == 9_500)
        #expect(api.uploads.methods.filter { $0 == "POST" }.count == 1)
    }

    @Test("a refused file holds itself with the API's reason, and the record that names it waits")
    func refusedFile() async throws {
        // Given: an API that takes files of 1,000 bytes at most
        let api = try API(maximumSize: 1_000)
        let device = try Device(databaseFile, api)
        let attached = try await inspectionWithPhoto(device, photo: try photo())
        // When
        _ = await PromiseExpectations.value(of: device.files.sync())
        let report = await PromiseExpectations.value(of: device.inspections.sync())
        // Then
        let state = await PromiseExpectations.value(of: device.files.state(of: attached.id))
        #expect(state == .held(reason: "HTTP 413: larger than 1000 bytes"))
        #expect(report?.sent.isEmpty == true && report?.waiting == 1)
        #expect(api.inspections.resources(as: Inspection.self).isEmpty)
        let record = await PromiseExpectations.value(of: device.inspections.list(policy: .cacheOnly))
        let id = try #require(record?.value.items.first?.value.id)
        let wait = await PromiseExpectations.value(of: device.inspections.waitingParent(of: id))
        #expect(wait??.collection == "attachments" && wait??.id == attached.id)
    }

    @Test("a file that cannot be read is a clear error, and nothing is queued or kept")
    func unreadableFile() async throws {
        // Given
        let api = try API()
        let device = try Device(databaseFile, api)
        let missing = folder.file("Photos/gone.jpg")
        // When
        let error = await PromiseExpectations.error(
            of: device.files.attach(fileAt: missing, contentType: "image/jpeg"))
        // Then
        #expect((error as? KeptFiles.Failure)?.description.contains("No such file or directory") == true)
        #expect(await PromiseExpectations.value(of: device.files.outbox.entries())?.isEmpty == true)
        let kept = try? FileManager.default.contentsOfDirectory(atPath: folder.file("Attachments").path)
        #expect((kept ?? []).isEmpty)
    }

    @Test(
        "the kept copy goes once its record's delete is sent, and not while another record keeps the same bytes"
    )
    func releasedWithItsRecord() async throws {
        // Given: two inspections made offline, each with a photo of the same bytes (one kept file),
        // both sent
        let api = try API()
        let device = try Device(databaseFile, api, online: false)
        let first = try await inspectionWithPhoto(device, photo: try photo("front.jpg"))
        let second = try await inspectionWithPhoto(device, photo: try photo("back.jpg"))
        _ = await PromiseExpectations.value(of: device.files.sync())
        _ = await PromiseExpectations.value(of: device.inspections.sync())
        let sent = try #require(
            await PromiseExpectations.value(of: device.inspections.list(policy: .cacheOnly)))
        let ids = sent.value.items.compactMap(\.value.id)
        #expect(ids.count == 2 && device.files.keptFile(of: first) != nil)
        // When: the first one's delete is sent
        _ = await PromiseExpectations.value(of: device.inspections.delete(id: ids[0]))
        _ = await PromiseExpectations.value(of: device.inspections.sync())
        // Then: the file stays for the second
        #expect(api.inspections.resources(as: Inspection.self).count == 1)
        #expect(device.files.keptFile(of: second) != nil)
        // When: the second one's delete is sent at once, online
        let online = try Device(databaseFile, api)
        _ = await PromiseExpectations.value(of: online.inspections.delete(id: ids[1]))
        // Then: nothing of either file stays here
        #expect(api.inspections.resources(as: Inspection.self).isEmpty)
        #expect(device.files.keptFile(of: second) == nil)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.file("Attachments").path)
        #expect(kept.isEmpty)
        for attachment in [first, second] {
            #expect(await PromiseExpectations.value(of: device.files.state(of: attachment.id)) == .unknown)
        }
    }

    @Test(
        "a record deleted with a file not yet uploaded keeps that file waiting: an unsent file is never removed"
    )
    func unsentFileKept() async throws {
        // Given: an inspection the API has, given a second photo offline, then deleted
        let api = try API()
        let device = try Device(databaseFile, api, online: false)
        _ = try await inspectionWithPhoto(device, photo: try photo())
        _ = await PromiseExpectations.value(of: device.files.sync())
        _ = await PromiseExpectations.value(of: device.inspections.sync())
        let sent = try #require(
            await PromiseExpectations.value(of: device.inspections.list(policy: .cacheOnly)))
        let id = try #require(sent.value.items.first?.value.id)
        let added = try #require(
            await PromiseExpectations.value(
                of: device.files.attach(
                    fileAt: try photo("added.jpg", bytes: 4_000), contentType: "image/jpeg")))
        _ = await PromiseExpectations.value(
            of: device.inspections.update(id: id) { $0.attachments.append(added) })
        _ = await PromiseExpectations.value(of: device.inspections.delete(id: id))
        // When: the delete is sent, the added photo not
        _ = await PromiseExpectations.value(of: device.inspections.sync())
        // Then
        #expect(api.inspections.resources(as: Inspection.self).isEmpty)
        #expect(device.files.keptFile(of: added) != nil)
        #expect(await PromiseExpectations.value(of: device.files.state(of: added.id)) == .waiting)
    }

    @Test("two processes syncing the same file at once upload it once")
    func twoProcessesOneUpload() async throws {
        // Given: one attachment, and two processes' views of the file
        let api = try API()
        let first = try Device(databaseFile, api)
        _ = try await inspectionWithPhoto(first, photo: try photo())
        let second = try Device(databaseFile, api)
        // When: both sync at once, then each once more
        async let one = PromiseExpectations.value(of: first.files.sync())
        async let two = PromiseExpectations.value(of: second.files.sync())
        _ = await (one, two)
        _ = await PromiseExpectations.value(of: first.files.sync())
        _ = await PromiseExpectations.value(of: second.files.sync())
        // Then
        #expect(api.uploads.uploads.count == 1)
        #expect(api.uploads.methods.filter { $0 == "POST" }.count == 1)
        #expect(api.uploads.bytesReceived == 9_500)
    }

    @Test("a screen watching an upload sees it wait, move on, and end uploaded, whichever process sends it")
    func watchedProgress() async throws {
        // Given: a screen watching an attachment made here, and an API failing its fifth piece
        let api = try API()
        let failing = Locked(true)
        let server = try TestHTTPServer { request in
            let down = request.method == "PATCH" && request.headers["upload-offset"] == "4000"
            return down && failing.withLock({ $0 })
                ? .status(503, body: "down")
                : (api.uploads.respond(request) ?? api.inspections.respond(request))
        }
        let database = try Database(at: databaseFile)
        let files = OfflineAttachments(
            database: database, client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never),
            chunkSize: 1_000)
        let attached = try #require(
            await PromiseExpectations.value(of: files.attach(fileAt: try photo(), contentType: "image/jpeg")))
        let states = DeliveryRecorder<[OfflineAttachmentState]>()
        let handle = files.observe([attached.id, "unknown"], on: .inline) {
            states.record((try? $0.get()) ?? [])
        }
        #expect(await states.next() == [.waiting, .unknown])
        // When: a sync stops at 4,000 bytes; another process finishes it later
        _ = await PromiseExpectations.value(of: files.sync())
        // (waits as long as a hang takes: another process's commits are seen within a tenth of a
        // second, but a loaded run is slow)
        let halfway = await states.next(
            timeout: 900, where: { $0.first == .uploading(sent: 4_000, of: 9_500) })
        failing.withLock { $0 = false }
        let other = OfflineAttachments(
            database: try Database(at: databaseFile),
            client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never), chunkSize: 1_000,
            now: { Date().addingTimeInterval(600) })
        _ = await PromiseExpectations.value(of: other.sync())
        // Then
        #expect(halfway != nil)
        #expect(await states.next(timeout: 900, where: { $0.first == .uploaded }) == [.uploaded, .unknown])
        handle.cancel()
    }

    @Test("another device gets the file a record names once, checked, and offline says it is not here yet")
    func downloadedOnAnotherDevice() async throws {
        // Given: a photo uploaded by this device, and a second device with a file of its own
        let api = try API()
        let device = try Device(databaseFile, api)
        let original = try photo()
        let bytes = try Data(contentsOf: original)
        let attached = try await inspectionWithPhoto(device, photo: original)
        _ = await PromiseExpectations.value(of: device.files.sync())
        _ = await PromiseExpectations.value(of: device.inspections.sync())
        let named = try #require(api.inspections.resources(as: Inspection.self).first?.attachments.first)
        let other = try Device(folder.file("Other/app.sqlite"), api)
        let closed = try ClosedPort()
        let offline = OfflineAttachments(
            database: try Database(at: folder.file("Third/app.sqlite")),
            client: APIClient(baseURL: closed.baseURL, timeout: 900, retry: .never))
        // When
        let url = await PromiseExpectations.value(of: other.files.file(for: named))
        let again = await PromiseExpectations.value(of: other.files.file(for: named))
        let error = await PromiseExpectations.error(of: offline.file(for: named))
        // Then
        #expect(named.id != attached.id && named.sha256 == attached.sha256)
        #expect(try url.map { try Data(contentsOf: $0) } == bytes)
        #expect(url?.path.hasPrefix(folder.file("Other/Attachments").path) == true && again == url)
        #expect(FailureClass(try #require(error)).kind == .offline)
    }
}
