import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// A parent that cannot go: what its children say (`OfflineCollection.waitingParent(of:)`), and a
/// parent deleted here before the API had it.
extension OfflineReferenceTests {
    @Test("a task held by its refused project names the project and the API's reason")
    func waitingParentNamesTheRefusal() async throws {
        // Given: a project the API refuses, and two tasks in it, synced
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let project = await projectWithTwoTasks(try device(file, api, online: false))
        api.projects.refuse("POST /projects", status: 422, body: #"{"error": "name taken"}"#)
        let online = try device(file, api, online: true)
        _ = await PromiseExpectations.value(of: online.projects.sync())
        _ = await PromiseExpectations.value(of: online.tasks.sync())
        let task = await PromiseExpectations.value(of: online.tasks.snapshot())?.values.first?.id

        // When
        let wait = await PromiseExpectations.value(of: online.tasks.waitingParent(of: task ?? ""))

        // Then
        #expect(wait??.collection == "projects" && wait??.id == project)
        guard case .refused(let reason)?? = wait?.map(\.state) else {
            Issue.record("not refused: \(String(describing: wait))")
            return
        }
        #expect(reason.contains("name taken"))
    }

    @Test("a task whose project is waiting to be sent names it, pending; a sent one names none")
    func waitingParentWhilePending() async throws {
        // Given
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let offline = try device(file, api, online: false)
        let project = await projectWithTwoTasks(offline)
        let task = await PromiseExpectations.value(of: offline.tasks.snapshot())?.values.first?.id ?? ""

        // When
        let before = await PromiseExpectations.value(of: offline.tasks.waitingParent(of: task))
        _ = await PromiseExpectations.value(of: try device(file, api, online: true).sync())
        let after = await PromiseExpectations.value(of: offline.tasks.waitingParent(of: task))

        // Then
        #expect(before == OfflineParentWait(collection: "projects", id: project ?? "", state: .pending))
        #expect(after == .some(nil))
    }

    @Test("a project deleted here before the API had it: its tasks are held, naming it, never sent")
    func deletedParentHoldsChildren() async throws {
        // Given: a project and two tasks made offline, then the project deleted offline
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let offline = try device(file, api, online: false)
        let project = await projectWithTwoTasks(offline) ?? ""
        _ = await PromiseExpectations.value(of: offline.projects.delete(id: project))

        // When: everything syncs
        let reports = await PromiseExpectations.value(of: try device(file, api, online: true).sync())
        let entries = await PromiseExpectations.value(of: offline.tasks.outbox.entries())

        // Then: neither the project nor a task naming it reached the API; both tasks say why
        #expect(api.projects.applied.isEmpty && api.tasks.applied.isEmpty)
        #expect(reports?.last?.sent.isEmpty == true && entries?.count == 2)
        for entry in entries ?? [] {
            guard case .refused(let reason) = entry.state else {
                Issue.record("not held: \(entry.state)")
                continue
            }
            #expect(reason.contains("projects/\(project)"))
        }
    }

    @Test("a project deleted here, its tasks declared to go with it: they are dropped, never sent")
    func deletedParentTakesItsChildren() async throws {
        // Given: tasks that go with their project, made offline with it; the project deleted
        let api = try API()
        defer { api.server.stop() }
        let database = try Database(at: folder.file("app.sqlite"))
        let client = APIClient(baseURL: api.server.baseURL, timeout: 30, retry: .never)
        let projects = OfflineCollection<Project>(database: database, collection: "projects", client: client)
        let tasks = OfflineCollection<PlannedTask>(database: database, collection: "tasks", client: client)
            .referencing(.field(\.projectID, to: projects).whenParentGone(.deleteChild))
        let offline = ProjectsAndTasks(projects: projects, tasks: tasks)
        let project = await PromiseExpectations.value(
            of: OfflineCollection<Project>(
                database: database, collection: "projects", client: client, reachability: Offline()
            ).create(Project(name: "House")))
        for title in ["Paint", "Sweep"] {
            _ = await PromiseExpectations.value(
                of: OfflineCollection<PlannedTask>(
                    database: database, collection: "tasks", client: client, reachability: Offline()
                ).create(PlannedTask(title: title, projectID: project?.id)))
        }
        _ = await PromiseExpectations.value(of: projects.delete(id: project?.id ?? ""))

        // When
        _ = await PromiseExpectations.value(of: offline.sync())
        let left = await PromiseExpectations.value(of: tasks.snapshot())
        let entries = await PromiseExpectations.value(of: tasks.outbox.entries())

        // Then: nothing reached the API; the tasks are gone here, their changes with them
        #expect(api.projects.applied.isEmpty && api.tasks.applied.isEmpty)
        #expect(left?.values.isEmpty == true)
        #expect(entries?.isEmpty == true)
    }
}

extension ProjectsAndTasks {
    /// The two collections as a test declares them.
    init(projects: OfflineCollection<Project>, tasks: OfflineCollection<PlannedTask>) {
        (self.projects, self.tasks) = (projects, tasks)
    }
}
