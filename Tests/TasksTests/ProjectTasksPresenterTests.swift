import Foundation
import OfflineKit
import PromiseMVPTesting
import Tasks
import Testing

/// The tasks of one project: a watched question to the copy, over a real SQLite file and a test
/// API of projects and tasks, opened with the project's id here and, after a sync, the API's.
@Suite("Tasks of a project")
@MainActor
struct ProjectTasksPresenterTests {
    struct Project: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var name: String
    }

    let folder = TemporaryFolder("ProjectTasksTests")
    let network = ManualConnectivity(.unreachable)
    let projectsAPI = TestResourceAPI(collection: "projects")
    let tasksAPI = TestResourceAPI(collection: "tasks")
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Both collections on the test's file; a task waits for its project's create.
    func collections(_ server: TestHTTPServer) throws -> (
        projects: OfflineCollection<Project>, tasks: OfflineCollection<PlannedTask>
    ) {
        let database = try Database(at: folder.file("tasks.sqlite"))
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let projects = OfflineCollection<Project>(
            database: database, collection: "projects", client: client, reachability: network)
        let tasks = OfflineCollection<PlannedTask>(
            database: database, collection: "tasks", client: client, reachability: network
        )
        .referencing(.field(\.projectId, to: projects))
        return (projects, tasks)
    }

    func screen(_ tasks: OfflineCollection<PlannedTask>, project: String) -> (
        ProjectTasksPresenter, RecordingTaskListView
    ) {
        let (presenter, view) = (
            ProjectTasksPresenter(tasks: tasks, project: project), RecordingTaskListView()
        )
        presenter.view = view
        presenter.load()
        return (presenter, view)
    }

    @Test("a project's tasks made offline show soonest first and waiting; synced, the same rows by either id")
    func tasksFollowTheirProjectsID() async throws {
        // Given: offline, a project with two tasks, and a task of no project
        let server = try TestHTTPServer(responder: TestRESTAPI(projectsAPI, tasksAPI).respond)
        defer { server.stop() }
        let (projects, tasks) = try collections(server)
        let house = try #require(
            await PromiseExpectations.value(of: projects.create(Project(name: "House")))?.id)
        for (title, day, project) in [("Paint", 2.0, house), ("Sweep", 1.0, house), ("Call", 0.0, nil)] {
            let due = Self.start.addingTimeInterval(day * 86_400)
            let task = PlannedTask(title: title, due: due, updatedAt: Self.start, projectId: project)
            _ = await PromiseExpectations.value(of: tasks.create(task))
        }

        // When: the screen opened by the project's id here, then everything sent
        let (presenter, view) = screen(tasks, project: house)
        let offline = await view.rows.next()
        let offlineNotice = view.syncNotice
        network.set(.reachable)
        _ = await PromiseExpectations.value(of: projects.sync())
        _ = await PromiseExpectations.value(of: tasks.sync())
        let synced = await view.rows.next { !$0.contains { $0.hasSuffix("(waiting to be sent)") } }
        let apiID = try #require(tasksAPI.resources(as: PlannedTask.self).compactMap(\.projectId).first)
        let (other, byAPI) = screen(tasks, project: apiID)

        // Then
        #expect(offline == ["Sweep (waiting to be sent)", "Paint (waiting to be sent)"])
        #expect(offlineNotice?.hasPrefix("2 changes") == true, "\(String(describing: offlineNotice))")
        #expect(apiID != house)
        #expect(synced == ["Sweep", "Paint"])
        #expect(await byAPI.rows.next() == ["Sweep", "Paint"])
        #expect(view.syncNotice == nil)
        presenter.stop()
        other.stop()
    }
}
