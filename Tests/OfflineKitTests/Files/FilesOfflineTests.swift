import Foundation
import OfflineKit
import PromiseMVPTesting
import Services
import Testing

/// The article "Files offline" as a test: a photo attached offline reaches the API before the
/// inspection that names it, and another device fetches it once.
@Suite("Files offline")
struct FilesOfflineTests {
    struct Inspection: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
        var photos: [OfflineAttachment] = []
    }

    /// One device: its folder, database, files and inspections.
    struct Device {
        let folder: TemporaryFolder
        let files: OfflineAttachments
        let inspections: OfflineCollection<Inspection>

        init(_ folder: TemporaryFolder, _ server: TestHTTPServer) throws {
            self.folder = folder
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            let database = try Database(at: folder.file("app.sqlite"))
            let client = APIClient(baseURL: server.baseURL, timeout: 900)
            files = OfflineAttachments(database: database, client: client)
            inspections = OfflineCollection<Inspection>(
                database: database, collection: "inspections", client: client
            ).referencing(.attachments(\.photos, to: files))
        }
    }

    @Test("a photo attached offline goes before the inspection naming it; another device fetches it once")
    func photoBeforeInspection() async throws {
        // Given: an API that takes files over tus and keeps inspections, and a photo on this device
        let uploads = TestUploadAPI()
        let api = TestResourceAPI(collection: "inspections")
        let server = try TestHTTPServer { uploads.respond($0) ?? api.respond($0) }
        let phone = try Device(TemporaryFolder("FilesOfflinePhone"), server)
        let photos = TemporaryFolder("FilesOfflinePhotos")
        try FileManager.default.createDirectory(at: photos.url, withIntermediateDirectories: true)
        let photo = photos.file("roof.jpg")
        try Data(repeating: 7, count: 50_000).write(to: photo)

        // When: the photo is attached to a new inspection, then everything is synced, files first
        let attached = try await phone.files.attach(fileAt: photo, contentType: "image/jpeg").value
        _ = try await phone.inspections.create(Inspection(title: "Roof", photos: [attached])).value
        let report = try await SyncedCollections.sync([phone.files, phone.inspections]).value

        // Then: the API holds the photo, and the inspection names the API's upload
        let upload = try #require(uploads.uploads.first)
        #expect(upload.sha256 == attached.sha256 && report.sent.count == 2)
        #expect(api.resources(as: Inspection.self).map { $0.photos.map(\.id) } == [[upload.id]])

        // When: another device lists the inspections and opens the photo twice
        let tablet = try Device(TemporaryFolder("FilesOfflineTablet"), server)
        let listed = try await tablet.inspections.list(policy: .networkFirst).value
        let named = try #require(listed.value.items.first?.value.photos.first)
        let first = try await tablet.files.file(for: named).value
        let second = try await tablet.files.file(for: named).value

        // Then: the same bytes, fetched once
        #expect(try Data(contentsOf: first) == Data(contentsOf: photo) && first == second)
        #expect(uploads.methods.filter { $0 == "GET" }.count == 1)
    }
}
