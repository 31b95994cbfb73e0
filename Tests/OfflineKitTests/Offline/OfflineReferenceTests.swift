import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// Related records made offline (`OfflineCollection.referencing(_:)`): a task names its project
/// (and a sub-task its parent task) by identifier; the API gives each its own. Two collections in
/// one database, behind one loopback server whose tasks API refuses a task naming a project it
/// does not have.
@Suite("OfflineCollection references")
struct OfflineReferenceTests {
    struct Offline: ConnectivityMonitor {
        var isReachable: Bool { false }
    }

    /// The API of both collections: a task naming a project it does not hold is refused with 400,
    /// as an API that checks references does.
    final class API: Sendable {
        let projects = TestResourceAPI(collection: "projects")
        let tasks: TestResourceAPI
        let server: TestHTTPServer

        init() throws {
            let projects = projects
            let tasks = TestResourceAPI(
                collection: "tasks",
                accepting: { body in
                    guard let task = try? APIClient.decode(PlannedTask.self, from: body) else { return nil }
                    if let project = task.projectID, projects.resource(project) == nil { return nil }
                    return body
                })
            self.tasks = tasks
            server = try TestHTTPServer { request in
                request.path.hasPrefix("/projects") ? projects.respond(request) : tasks.respond(request)
            }
        }
    }

    /// One process's view of the file: both collections, offline or online.
    func device(_ file: URL, _ api: API, online: Bool) throws -> ProjectsAndTasks {
        ProjectsAndTasks(
            database: try Database(at: file),
            client: APIClient(baseURL: api.server.baseURL, timeout: 30, retry: .never),
            reachability: online ? .assumeReachable : Offline())
    }

    let folder = TemporaryFolder("OfflineReferenceTests")

    /// A project and two tasks in it, made offline; the project's local identifier.
    func projectWithTwoTasks(_ device: ProjectsAndTasks) async -> String? {
        let project = await PromiseExpectations.value(of: device.projects.create(Project(name: "House")))
        for title in ["Paint", "Sweep"] {
            _ = await PromiseExpectations.value(
                of: device.tasks.create(PlannedTask(title: title, projectID: project?.id)))
        }
        return project?.id
    }

    @Test(
        "a change that names no resource to rename is sent as it waits: fields the model does not know kept")
    func nothingToRenameSendsTheBodyAsItWaits() async throws {
        // Given: a task in no project, made offline, whose waiting body holds a field the model
        // does not know (as a merge after a conflict leaves one)
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let offline = try device(file, api, online: false)
        _ = await PromiseExpectations.value(of: offline.tasks.create(PlannedTask(title: "Sweep")))
        _ = await PromiseExpectations.value(
            of: try Database(at: file).write { connection in
                try connection.execute(
                    """
                    UPDATE outbox SET body = CAST(json_set(CAST(body AS TEXT), '$.colour', 'teal') AS BLOB)
                    WHERE feature = 'tasks'
                    """)
            })

        // When
        _ = await PromiseExpectations.value(of: try device(file, api, online: true).sync())

        // Then
        #expect(api.tasks.field("colour", of: "tasks-1") == "teal")
    }

    @Test("a project and two tasks made offline: one POST /projects, then the tasks naming the API's id")
    func parentThenChildren() async throws {
        // Given: a project and two tasks in it, made offline
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let offline = try device(file, api, online: false)
        let localID = await projectWithTwoTasks(offline)

        // When: the database syncs, projects first
        let online = try device(file, api, online: true)
        let reports = await PromiseExpectations.value(of: online.sync())
        let (projectsSent, tasksSent) = (reports?.first, reports?.last)

        // Then: the API holds one project and both tasks, naming its id; so does the copy here
        #expect(api.projects.applied == ["POST /projects"])
        #expect(projectsSent?.newIDs == [localID ?? "": "projects-1"])
        #expect(tasksSent?.sent.count == 2)
        #expect(api.tasks.resources(as: PlannedTask.self).map(\.projectID) == ["projects-1", "projects-1"])
        let kept = await PromiseExpectations.value(of: online.tasks.list(policy: .cacheOnly))
        #expect(kept?.value.values.map(\.projectID) == ["projects-1", "projects-1"])
        // ... and the project asked for online by the id it had here is read from the API's
        let project = await PromiseExpectations.value(of: online.projects.fetch(id: localID ?? ""))
        #expect(project?.name == "House")
        #expect(api.server.requests.last == "GET /projects/projects-1 HTTP/1.1")
    }

    @Test("the tasks synced before the project: nothing is sent until the project is answered")
    func childrenWaitForTheirParent() async throws {
        // Given: a project and two tasks made offline, and a task of no project
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let offline = try device(file, api, online: false)
        _ = await projectWithTwoTasks(offline)
        _ = await PromiseExpectations.value(of: offline.tasks.create(PlannedTask(title: "Call")))

        // When: the tasks sync first
        let online = try device(file, api, online: true)
        let first = await PromiseExpectations.value(of: online.tasks.sync())

        // Then: only the unrelated task went; the two wait, shown naming the local project
        #expect(api.tasks.applied == ["POST /tasks"])
        #expect(first?.sent.count == 1)
        #expect(first?.waiting == 2)
        #expect(first?.refused.isEmpty == true)

        // When: the project syncs, then the tasks again
        _ = await PromiseExpectations.value(of: online.projects.sync())
        let second = await PromiseExpectations.value(of: online.tasks.sync())

        // Then: both tasks went, naming the API's project
        #expect(second?.sent.count == 2)
        #expect(
            api.tasks.resources(as: PlannedTask.self).compactMap(\.projectID) == ["projects-1", "projects-1"])
    }

    @Test("a project synced by another process: this one's tasks go naming the API's id, and show it before")
    func parentSentElsewhere() async throws {
        // Given: a project and two tasks made offline
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let offline = try device(file, api, online: false)
        let localID = await projectWithTwoTasks(offline)

        // When: another process (its own connection to the file) sends the project
        let other = try device(file, api, online: true)
        _ = await PromiseExpectations.value(of: other.projects.sync())

        // Then: this process reads the tasks naming the API's id before sending them
        let shown = await PromiseExpectations.value(of: offline.tasks.list(policy: .cacheOnly))
        #expect(shown?.value.values.map(\.projectID) == ["projects-1", "projects-1"])
        // ... the project by its old id is found under its new one
        let project = await PromiseExpectations.value(of: offline.projects.fetch(id: localID ?? ""))
        #expect(project?.id == "projects-1")
        // ... and its sync sends them naming it
        let online = try device(file, api, online: true)
        let sent = await PromiseExpectations.value(of: online.tasks.sync())
        #expect(sent?.sent.count == 2)
        #expect(api.tasks.resources(as: PlannedTask.self).map(\.projectID) == ["projects-1", "projects-1"])
    }

    @Test("the project's answer lost and sent again under its key: one project, the tasks naming it")
    func parentAnswerLost() async throws {
        // Given: a project and two tasks made offline; the API's answer to the project will be lost
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        _ = await projectWithTwoTasks(try device(file, api, online: false))
        api.projects.loseAnswer(to: "POST /projects", with: .reset)

        // When: a sync that loses the answer, then the next syncs
        let online = try device(file, api, online: true)
        _ = await PromiseExpectations.value(of: online.projects.sync())
        let waiting = await PromiseExpectations.value(of: online.tasks.sync())
        _ = await PromiseExpectations.value(of: online.projects.sync())
        _ = await PromiseExpectations.value(of: online.tasks.sync())

        // Then: the tasks waited while the answer was unknown; one project, both tasks naming it
        #expect(waiting?.sent.isEmpty == true)
        #expect(api.projects.ids == ["projects-1"])
        #expect(api.tasks.resources(as: PlannedTask.self).map(\.projectID) == ["projects-1", "projects-1"])
    }

    @Test("a refused project holds its tasks: none is sent naming an id no one has")
    func refusedParentHoldsChildren() async throws {
        // Given: a project the API refuses, and two tasks in it
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        _ = await projectWithTwoTasks(try device(file, api, online: false))
        api.projects.refuse("POST /projects", status: 422, body: #"{"error": "name taken"}"#)

        // When: both collections sync
        let online = try device(file, api, online: true)
        let projects = await PromiseExpectations.value(of: online.projects.sync())
        let tasks = await PromiseExpectations.value(of: online.tasks.sync())

        // Then: the project is refused; the tasks wait, unsent and not refused by the API
        #expect(projects?.refused.count == 1)
        #expect(tasks?.sent.isEmpty == true)
        #expect(tasks?.waiting == 2)
        #expect(api.tasks.applied.isEmpty)
    }

    @Test("a task the API refuses after its project was answered is held naming the API's project")
    func refusedChildKeepsTheAPIsID() async throws {
        // Given: a project and two tasks made offline; the API will refuse one of the tasks
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        _ = await projectWithTwoTasks(try device(file, api, online: false))
        api.tasks.refuse(
            matching: { String(decoding: $0.body, as: UTF8.self).contains("Paint") }, status: 422,
            body: #"{"error": "title taken"}"#)

        // When: both collections sync
        let online = try device(file, api, online: true)
        let reports = await PromiseExpectations.value(of: online.sync())

        // Then: the refused task's change is kept as it was sent, naming the project by the API's
        // id, as a screen of held changes shows it and a retry sends it
        #expect(reports?.last?.refused.count == 1)
        let held = await PromiseExpectations.value(of: online.tasks.outbox.entries())
        let tasks = held?.compactMap { entry in
            entry.body.flatMap { try? APIClient.decode(PlannedTask.self, from: $0) }
        }
        #expect(tasks?.map(\.title) == ["Paint"])
        #expect(tasks?.map(\.projectID) == ["projects-1"])
    }

    @Test("nested route: a task made offline in a project made offline is POSTed under the project's API id")
    func nestedRoute() async throws {
        // Given: an API that creates tasks only under their project, refusing an unknown one
        let projects = TestResourceAPI(collection: "projects")
        let tasks = TestResourceAPI(collection: "tasks")
        let nested = Locked<[String]>([])
        let server = try TestHTTPServer { request in
            let parts = request.path.split(separator: "/")
            guard request.method == "POST", parts.count == 3, parts[0] == "projects", parts[2] == "tasks"
            else {
                return projects.respond(request)
            }
            nested.withLock { $0.append(request.path) }
            guard projects.resource(String(parts[1])) != nil else { return .status(400, body: "{}") }
            return tasks.respond(
                TestHTTPServer.Request(
                    method: "POST", path: "/tasks", body: request.body, headers: request.headers))
        }
        defer { server.stop() }
        let file = folder.file("app.sqlite")
        func device(online: Bool) throws -> (OfflineCollection<Project>, OfflineCollection<PlannedTask>) {
            let app = ProjectsAndTasks(
                database: try Database(at: file),
                client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never),
                reachability: online ? .assumeReachable : Offline())
            return (
                app.projects,
                app.tasks.creating { "projects/\(APIClient.pathSegment($0.projectID ?? ""))/tasks" }
            )
        }
        let (offlineProjects, offlineTasks) = try device(online: false)
        let project = await PromiseExpectations.value(of: offlineProjects.create(Project(name: "House")))
        _ = await PromiseExpectations.value(
            of: offlineTasks.create(PlannedTask(title: "Paint", projectID: project?.id)))

        // When: the projects sync, then the tasks
        let (onlineProjects, onlineTasks) = try device(online: true)
        _ = await PromiseExpectations.value(of: onlineProjects.sync())
        let sent = await PromiseExpectations.value(of: onlineTasks.sync())

        // Then: one POST, under the project's API id
        #expect(sent?.sent.count == 1)
        #expect(nested.withLock { $0 } == ["/projects/projects-1/tasks"])
        #expect(tasks.resources(as: PlannedTask.self).map(\.projectID) == ["projects-1"])
    }

    @Test("a task shown with its project's name offline, updated when the project changes or gets its API id")
    func joinedReadFollowsBoth() async throws {
        // Given: a project and two tasks made offline, watched joined
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let offline = try device(file, api, online: false)
        let localID = await projectWithTwoTasks(offline)
        let seen = DeliveryRecorder<[String]>()
        let observation = offline.tasks.observe(joining: offline.projects, on: \.projectID, on: .inline) {
            result in
            guard case .success(let joined) = result else { return }
            seen.record(joined.map { "\($0.item.value.title) in \($0.parent?.name ?? "?")" })
        }
        defer { observation.cancel() }
        let first = await seen.next()

        // When: the project renamed here, then sent by another process
        _ = await PromiseExpectations.value(
            of: offline.projects.update(id: localID ?? "") { $0.name = "Home" })
        let renamed = await seen.next { $0 == ["Paint in Home", "Sweep in Home"] }
        _ = await PromiseExpectations.value(of: try device(file, api, online: true).projects.sync())
        let joined = await PromiseExpectations.value(
            of: offline.tasks.snapshot(joining: offline.projects, on: \.projectID))

        // Then: each read shows the project's fields, before and after it has the API's id
        #expect(first == ["Paint in House", "Sweep in House"])
        #expect(renamed != nil)
        #expect(joined?.map { $0.parent?.id } == ["projects-1", "projects-1"])
        #expect(joined?.map { $0.parent?.name } == ["Home", "Home"])
    }

    @Test("a project discarded after the API refused it: its tasks are held, saying so, never sent")
    func discardedParentHoldsChildren() async throws {
        // Given: a project the API refused, with two tasks, and the user discarding the project
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let localID = await projectWithTwoTasks(try device(file, api, online: false))
        api.projects.refuse("POST /projects", status: 422, body: #"{"error": "name taken"}"#)
        let online = try device(file, api, online: true)
        _ = await PromiseExpectations.value(of: online.projects.sync())
        _ = await PromiseExpectations.value(of: online.projects.discard(id: localID ?? ""))

        // When: the tasks sync
        let sent = await PromiseExpectations.value(of: online.tasks.sync())
        let entries = await PromiseExpectations.value(of: online.tasks.outbox.entries())

        // Then: nothing sent; both held, each saying which project was discarded
        #expect(sent?.sent.isEmpty == true)
        #expect(api.tasks.applied.isEmpty)
        #expect(entries?.count == 2)
        for entry in entries ?? [] {
            guard case .refused(let reason) = entry.state else {
                Issue.record("not held: \(entry.state)")
                continue
            }
            #expect(reason.contains("projects/\(localID ?? "")") && reason.contains("discarded"))
        }
    }

    @Test("a sub-task made offline under a task made offline goes after it, naming its API id")
    func selfReference() async throws {
        // Given: a task and a sub-task of it, made offline
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let offline = try device(file, api, online: false)
        let parent = await PromiseExpectations.value(of: offline.tasks.create(PlannedTask(title: "Move")))
        _ = await PromiseExpectations.value(
            of: offline.tasks.create(PlannedTask(title: "Pack", parentID: parent?.id)))

        // When: one sync
        let online = try device(file, api, online: true)
        let sent = await PromiseExpectations.value(of: online.tasks.sync())

        // Then: the parent first, the sub-task naming its id
        #expect(sent?.sent.count == 2)
        #expect(api.tasks.applied == ["POST /tasks", "POST /tasks"])
        #expect(api.tasks.resources(as: PlannedTask.self).map(\.parentID) == [nil, "tasks-1"])
    }

    @Test("online, a task naming a project whose create waits is queued, not sent")
    func onlineChildOfWaitingParentIsQueued() async throws {
        // Given: a project made offline, not sent
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let project = await PromiseExpectations.value(
            of: try device(file, api, online: false).projects.create(Project(name: "House")))

        // When: online, a task in it
        let online = try device(file, api, online: true)
        let task = await PromiseExpectations.value(
            of: online.tasks.create(PlannedTask(title: "Paint", projectID: project?.id)))

        // Then: kept here, queued, nothing sent; after the project, it goes naming the API's id
        #expect(task?.projectID == project?.id)
        #expect(api.tasks.applied.isEmpty)
        _ = await PromiseExpectations.value(of: online.projects.sync())
        _ = await PromiseExpectations.value(of: online.tasks.sync())
        #expect(api.tasks.resources(as: PlannedTask.self).map(\.projectID) == ["projects-1"])
    }
}
