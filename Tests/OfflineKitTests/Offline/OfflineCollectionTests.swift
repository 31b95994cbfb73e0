import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// `OfflineCollection` on its generic storage (`JSONOfflineStorage`), over a real SQLite file and
/// the test API.
@Suite("OfflineCollection")
struct OfflineCollectionTests {
    struct Task: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
        var note: String?
    }

    struct Offline: ConnectivityMonitor {
        var isReachable: Bool { false }
    }

    let folder = TemporaryFolder("OfflineCollectionTests")

    func tasks(_ server: TestHTTPServer, online: Bool = false) throws -> (Database, OfflineCollection<Task>) {
        let database = try Database(at: folder.file("tasks.sqlite"))
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let collection =
            online
            ? OfflineCollection<Task>(database: database, collection: "tasks", client: client)
            : OfflineCollection<Task>(
                database: database, collection: "tasks", client: client, reachability: Offline())
        return (database, collection)
    }

    @Test("a copy filled by a listing keeps the listing's date when a write is answered later")
    func listedCopyKeepsItsDate() async throws {
        // Given: a copy listed at one time
        let server = try TestHTTPServer(
            responder: TestResourceAPI(collection: "tasks", resources: [Task(id: "1", title: "Tea")]).respond)
        defer { server.stop() }
        let database = try Database(at: folder.file("tasks.sqlite"))
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let collection = OfflineCollection<Task>(
            database: database, collection: "tasks", client: client, now: { clock.withLock { $0 } })
        _ = await PromiseExpectations.value(of: collection.list())

        // When: an hour later, a write the API answers
        clock.withLock { $0 = Date(timeIntervalSince1970: 1_003_600) }
        _ = await PromiseExpectations.value(of: collection.create(Task(title: "Milk")))
        let listed = await PromiseExpectations.value(of: collection.list(policy: .cacheOnly))

        // Then: the copy is as old as its listing, with the write laid over it
        #expect(listed?.value.values.map(\.title).sorted() == ["Milk", "Tea"])
        #expect(listed?.source.savedAt == Date(timeIntervalSince1970: 1_000_000))
    }

    @Test(
        "a device that never listed shows offline what it created, once the API took it (online or by a sync)",
        arguments: [true, false])
    func createdResourcesShowWithoutAListing(createdOnline: Bool) async throws {
        // Given: a device that never listed from the API
        let server = try TestHTTPServer(
            responder: TestResourceAPI(collection: "tasks", resources: []).respond)
        defer { server.stop() }
        let (_, online) = try tasks(server, online: true)

        // When: a task created online, or offline and then sent
        if createdOnline {
            _ = await PromiseExpectations.value(of: online.create(Task(title: "Milk")))
        } else {
            let (_, offline) = try tasks(server)
            _ = await PromiseExpectations.value(of: offline.create(Task(title: "Milk")))
            _ = await PromiseExpectations.value(of: online.sync())
        }
        let listed = await PromiseExpectations.value(of: online.list(policy: .cacheOnly))

        // Then: shown from the copy, with its date, not "nothing to show yet"
        #expect(listed?.value.values.map(\.title) == ["Milk"])
        guard case .stored? = listed?.source else {
            Issue.record("not from the copy: \(String(describing: listed?.source))")
            return
        }
    }

    @Test(
        "a row changed here whose change is missing from the outbox is damaged, never synced, and discarding it drops the row"
    )
    func missingChangeIsDamaged() async throws {
        // Given: a task created offline, its outbox entry then lost
        let server = try TestHTTPServer(
            responder: TestResourceAPI(collection: "tasks", resources: []).respond)
        defer { server.stop() }
        let (database, tasks) = try tasks(server)
        let created = try #require(await PromiseExpectations.value(of: tasks.create(Task(title: "Milk"))))
        let id = try #require(created.id)
        _ = await PromiseExpectations.value(of: database.write { try $0.execute("DELETE FROM outbox") })

        // When
        let status = await PromiseExpectations.value(of: tasks.status())

        // Then
        guard case .damaged? = status?.state(of: id) else {
            Issue.record("\(id) is \(String(describing: status?.state(of: id)))")
            return
        }

        // When: discarded
        let dropped = await PromiseExpectations.value(of: tasks.discard(id: id))

        // Then
        #expect(dropped?.map(\.localID) == [id])
        #expect(await PromiseExpectations.value(of: tasks.status()) == .empty)
    }
}

extension OfflineCollectionTests {
    @Test(
        "the first listing offline is this device's resources, saying nothing is saved yet; the copy alone is noData"
    )
    func firstOfflineListingIsEmpty() async throws {
        // Given: a new device, offline, its API down
        let down = try ClosedPort()
        let database = try Database(at: folder.file("tasks.sqlite"))
        let collection = OfflineCollection<Task>(
            database: database, collection: "tasks", client: APIClient(baseURL: down.baseURL, retry: .never))

        // When: listed network first, then the copy alone
        let listed = await PromiseExpectations.value(of: collection.list())
        let copyOnly = await PromiseExpectations.error(of: collection.list(policy: .cacheOnly))

        // Then: an empty snapshot the screen words as "nothing saved yet"; the copy alone has none
        #expect(listed?.value.values == [])
        #expect(listed?.source == .nothingSaved)
        #expect(
            SourceNotice(noun: "tasks").text(for: listed?.source ?? .network)
                == "Offline: no tasks saved on this device yet.")
        #expect(ServiceRequestError(copyOnly ?? APIError.notHTTP) == .noData)
    }
}
