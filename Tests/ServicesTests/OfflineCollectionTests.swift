import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

/// `OfflineCollection` on its generic storage (`JSONOfflineStorage`), over a real SQLite file and
/// the test API.
@Suite("OfflineCollection")
struct OfflineCollectionTests {
    struct Task: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
    }

    struct Offline: NetworkReachability {
        var isReachable: Bool { false }
    }

    let folder = TemporaryFolder("OfflineCollectionTests")

    func tasks(_ server: TestHTTPServer) throws -> (Database, OfflineCollection<Task>) {
        let database = try Database(at: folder.file("tasks.sqlite"))
        let collection = OfflineCollection<Task>(
            database: database, collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 5, retry: .never), reachability: Offline())
        return (database, collection)
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
