import Foundation
import OfflineKit
import PromiseMVPTesting
import Promises
import Services
import Testing

/// `OfflineCollection.diagnostics()` and `observeDiagnostics(on:_:)`: the outbox's snapshot with the
/// copy (rows, bytes, how it was last brought up to date, the feed's token) and what changes take.
@Suite("Offline collection diagnostics")
struct OfflineCollectionDiagnosticsTests {
    typealias Task = OfflineCollectionTests.Task
    let folder = TemporaryFolder("OfflineCollectionDiagnosticsTests")
    let api = TestResourceAPI(
        collection: "tasks",
        resources: [
            ["id": "t1", "title": "Milk"], ["id": "t2", "title": "Eggs"], ["id": "t3", "title": "Tea"],
        ])
    let clock = Locked(Date(timeIntervalSince1970: 5_000))
    let database: Database

    init() throws {
        database = try Database(at: folder.file("tasks.sqlite"))
    }

    func tasks(_ server: TestHTTPServer, _ connectivity: ManualConnectivity) throws -> OfflineCollection<Task>
    {
        OfflineCollection<Task>(
            database: database, collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 900, retry: .never),
            reachability: connectivity, now: { [clock] in clock.withLock { $0 } })
    }

    @Test(
        "the copy says its rows and bytes, each listing, each 304 and each feed update, and the feed's token")
    func copyAndRefreshes() async throws {
        // Given: a copy never listed
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server, ManualConnectivity(.reachable))
        let empty = try #require(await PromiseExpectations.value(of: tasks.diagnostics()))

        // When: listed, listed again unchanged (304), then a change in the API brought by the feed
        _ = await PromiseExpectations.value(of: tasks.refresh())
        clock.withLock { $0 += 60 }
        _ = await PromiseExpectations.value(of: tasks.refresh())
        let listed = try #require(await PromiseExpectations.value(of: tasks.diagnostics()))
        api.edit("t1", ["title": "Oat milk"])
        clock.withLock { $0 += 60 }
        _ = await PromiseExpectations.value(of: tasks.followingChanges().refresh())
        let followed = try #require(await PromiseExpectations.value(of: tasks.diagnostics()))

        // Then
        #expect(empty.copy?.rows == 0 && empty.copy?.refreshedAt == nil && empty.copy?.listings == 0)
        let copy = try #require(listed.copy)
        #expect(copy.rows == 3 && copy.listings == 1 && copy.notModified == 1 && copy.feedUpdates == 0)
        #expect(api.listings == (full: 1, notModified: 1))
        #expect(copy.refreshedAt == Date(timeIntervalSince1970: 5_060))
        let usage = try #require(
            await PromiseExpectations.value(of: StorageBudget(database: database, bytes: 0).usage()))
        #expect(copy.bytes > 0)
        let after = try #require(followed.copy)
        #expect(after.feedUpdates == 1 && after.listings == 1 && after.notModified == 1)
        #expect(after.refreshedAt == Date(timeIntervalSince1970: 5_120))
        #expect(after.feedToken != nil && after.feedToken != copy.feedToken)
        #expect(
            after.bytes == copy.bytes + "Oat milk".utf8.count - "Milk".utf8.count
                && after.bytes == usage.bytes)
    }

    @Test("what the waiting changes take is counted, and nothing once they are sent")
    func outboxBytes() async throws {
        // Given: two tasks made offline
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let connectivity = ManualConnectivity(.unreachable)
        let tasks = try tasks(server, connectivity)
        for title in ["Bread", "A longer title than bread"] {
            _ = await PromiseExpectations.value(of: tasks.create(Task(title: title)))
        }
        // When
        let waiting = try #require(await PromiseExpectations.value(of: tasks.diagnostics()))
        connectivity.set(.reachable)
        _ = await PromiseExpectations.value(of: tasks.sync())
        let sent = try #require(await PromiseExpectations.value(of: tasks.diagnostics()))
        // Then: each body and its path, then nothing
        let bodies = ["Bread", "A longer title than bread"].map {
            #"{"title":"\#($0)"}"#.utf8.count + "tasks".utf8.count
        }
        #expect(waiting.changes.count == 2 && waiting.outboxBytes >= bodies.reduce(0, +))
        #expect(waiting.copy?.rows == 2)
        #expect(sent.changes.isEmpty && sent.outboxBytes == 0)
    }

    @Test("a screen watching the diagnostics is shown a change queued, then its send")
    func observed() async throws {
        // Given: a watched collection, offline
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let connectivity = ManualConnectivity(.unreachable)
        let tasks = try tasks(server, connectivity)
        let shown = DeliveryRecorder<OutboxDiagnostics>()
        let observation = tasks.observeDiagnostics(on: .inline) {
            if case .success(let snapshot) = $0 { shown.record(snapshot) }
        }
        defer { observation.cancel() }
        let first = await shown.next()
        // When
        _ = await PromiseExpectations.value(of: tasks.create(Task(title: "Bread")))
        let queued = await shown.next { $0.changes.count == 1 }
        connectivity.set(.reachable)
        _ = await PromiseExpectations.value(of: tasks.sync())
        let sent = await shown.next { $0.changes.isEmpty && $0.identifiers == 1 }
        // Then
        #expect(first?.changes.isEmpty == true && first?.copy?.rows == 0)
        #expect(queued?.changes.first?.kind == "create" && queued?.copy?.rows == 1)
        #expect(sent?.changes.isEmpty == true)
    }

    @Test("a task made offline in a new project says it waits for the project, until the project is sent")
    func waitingForParent() async throws {
        // Given: a project and a task in it, made offline
        let api = try OfflineReferenceTests.API()
        defer { api.server.stop() }
        let connectivity = ManualConnectivity(.unreachable)
        let both = ProjectsAndTasks(
            database: database, client: APIClient(baseURL: api.server.baseURL, timeout: 900, retry: .never),
            reachability: connectivity)
        let project = try #require(
            await PromiseExpectations.value(of: both.projects.create(Project(name: "Roof"))))
        _ = await PromiseExpectations.value(
            of: both.tasks.create(PlannedTask(title: "Buy tiles", projectID: project.id)))
        // When
        let waiting = await PromiseExpectations.value(of: both.tasks.diagnostics())
        connectivity.set(.reachable)
        _ = await PromiseExpectations.value(of: both.projects.sync())
        let released = await PromiseExpectations.value(of: both.tasks.diagnostics())
        // Then
        #expect(waiting?.changes.map(\.waitingFor) == ["projects/\(project.id ?? "")"])
        #expect(waiting?.changes.first?.sent == false)
        #expect(released?.changes.map(\.waitingFor) == [nil])
    }
}

extension OfflineCollectionDiagnosticsTests {
    @Test("a delete that never left is queued as not sent; one the API may have taken, as sent")
    func deleteQueuedSaysWhetherItLeft() async throws {
        // Given: a listed copy, an API that applies a delete of t2 but loses its answer, and an
        // address nothing listens on
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server, ManualConnectivity(.reachable))
        _ = await PromiseExpectations.value(of: tasks.refresh())
        api.loseAnswer(to: "DELETE /tasks/t2", with: .closeWithoutAnswer)
        let down = OfflineCollection<Task>(
            database: database, collection: "tasks",
            client: APIClient(baseURL: try ClosedPort().baseURL, timeout: 900, retry: .never),
            reachability: ManualConnectivity(.reachable), now: { [clock] in clock.withLock { $0 } })

        // When: t1 deleted where the connection is refused, t2 where the answer is lost
        _ = await PromiseExpectations.value(of: down.delete(id: "t1"))
        _ = await PromiseExpectations.value(of: tasks.delete(id: "t2"))
        let waiting = try #require(await PromiseExpectations.value(of: tasks.diagnostics()))

        // Then: both wait as deletes; only t2's may have arrived
        let changes = Dictionary(uniqueKeysWithValues: waiting.changes.map { ($0.localID, $0) })
        #expect(changes["t1"]?.kind == "delete" && changes["t2"]?.kind == "delete", "\(waiting.changes)")
        #expect(changes["t1"]?.sent == false)
        #expect(changes["t2"]?.sent == true)
    }
}
