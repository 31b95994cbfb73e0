import Foundation
import OfflineKit
import PromiseMVPTesting
import Testing

/// Two related collections against one test API that checks the reference between them: a task
/// naming a project the API does not have is refused, as the app's own API does.
@Suite("Testing related collections")
struct RelatedCollectionsAPITests {
    struct Project: OfflineResource {
        var id: String?
        var version: String?
        var name: String
    }

    struct Task: OfflineResource {
        var id: String?
        var version: String?
        var title: String
        var projectID: String?
    }

    let folder = TemporaryFolder("RelatedCollectionsAPITests")

    @Test("a project and its task made offline reach the API in one sync, the task naming the API's project")
    func projectThenTask() async throws {
        // Given: the API of both collections, which refuses a task naming an unknown project, and
        // records every task body it receives
        let bodies = TestLog<Data>()
        let projects = TestResourceAPI(collection: "projects")
        let tasks = TestResourceAPI(collection: "tasks") { body in
            bodies.append(body)
            return body
        }
        tasks.requiring("projectID", in: projects)
        let server = try TestHTTPServer(responder: TestRESTAPI(projects, tasks).respond)
        defer { server.stop() }
        let database = try Database(at: folder.file("app.sqlite"))
        let client = APIClient(baseURL: server.baseURL, retry: .never)
        let offline = ManualConnectivity(.unreachable)
        let projectsHere = OfflineCollection<Project>(
            database: database, collection: "projects", client: client, reachability: offline)
        let tasksHere = OfflineCollection<Task>(
            database: database, collection: "tasks", client: client, reachability: offline
        ).referencing(.field(\.projectID, to: projectsHere))
        let shed = try #require(
            await PromiseExpectations.value(of: projectsHere.create(Project(name: "Shed"))))
        _ = await PromiseExpectations.value(of: tasksHere.create(Task(title: "Paint", projectID: shed.id)))

        // When: back online, both sent in one call, parents first
        offline.set(.reachable)
        let report = await PromiseExpectations.value(of: SyncedCollections.sync([projectsHere, tasksHere]))

        // Then
        #expect(report?.sent.count == 2 && report?.refused.isEmpty == true)
        #expect(tasks.resources(as: Task.self).map(\.projectID) == ["projects-1"])
        #expect(
            bodies.elements.count == 1
                && !String(decoding: bodies.elements[0], as: UTF8.self).contains("local-"))
    }

    @Test("the test API refuses a task naming a project it does not have, with the reason")
    func unknownProjectRefused() async throws {
        // Given
        let projects = TestResourceAPI(collection: "projects")
        let tasks = TestResourceAPI(collection: "tasks")
        tasks.requiring("projectID", in: projects)
        let api = TestRESTAPI(projects, tasks)

        // When
        let (status, body) =
            api.collections["tasks"]?.handle(
                TestHTTPServer.Request(
                    method: "POST", path: "/tasks", body: Data(#"{"title": "x", "projectID": "p9"}"#.utf8))
            ) ?? (0, "")

        // Then
        #expect(status == 400 && body.contains("unknown projectID p9"))
        #expect(tasks.ids.isEmpty)
    }
}
