import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// What a child waits for, and what it names once its parent is gone (`OfflineReferences.swift`):
/// the behaviours a mutation run found no test for.
extension OfflineReferenceTests {
    /// A project the API has (House), whose rename made offline the API refused and holds: the
    /// two views of the file and the project's id.
    func projectWithHeldEdit(_ api: API) async throws -> (
        online: ProjectsAndTasks, offline: ProjectsAndTasks, id: String
    ) {
        let file = folder.file("app.sqlite")
        let online = try device(file, api, online: true)
        let house = try #require(
            await PromiseExpectations.value(of: online.projects.create(Project(name: "House"))))
        let id = house.id ?? ""
        let offline = try device(file, api, online: false)
        _ = await PromiseExpectations.value(of: offline.projects.update(id: id) { $0.name = "Home" })
        api.projects.refuse("PUT /projects/\(id)", status: 422, body: #"{"error": "no"}"#)
        _ = await PromiseExpectations.value(of: online.projects.sync())
        return (online, offline, id)
    }

    @Test("a task naming a project the API has goes at once, whatever edit of the project waits or is held")
    func childDoesNotWaitForParentsEdit() async throws {
        // Given: a project the API has, its rename refused and held; then a task naming it
        let api = try API()
        defer { api.server.stop() }
        let (online, offline, house) = try await projectWithHeldEdit(api)
        _ = await PromiseExpectations.value(
            of: offline.tasks.create(PlannedTask(title: "Paint", projectID: house)))

        // When
        let report = await PromiseExpectations.value(of: online.tasks.sync())

        // Then: the task went, naming the project the API has
        #expect(report?.sent.count == 1, "\(String(describing: report))")
        #expect(api.tasks.resources(as: PlannedTask.self).map(\.projectID) == [house])
    }

    @Test("discarding a held edit of a project the API has leaves its tasks free to go")
    func discardedEditDoesNotOrphanChildren() async throws {
        // Given: a project the API has; its edit refused, then discarded; a task naming it
        let api = try API()
        defer { api.server.stop() }
        let (online, offline, house) = try await projectWithHeldEdit(api)
        _ = await PromiseExpectations.value(of: online.projects.discard(id: house))
        _ = await PromiseExpectations.value(
            of: offline.tasks.create(PlannedTask(title: "Paint", projectID: house)))

        // When
        let report = await PromiseExpectations.value(of: online.tasks.sync())

        // Then: sent, not held as naming a project "deleted or discarded on this device"
        #expect(report?.sent.count == 1 && report?.refused.isEmpty == true, "\(String(describing: report))")
        #expect(await PromiseExpectations.value(of: online.tasks.outbox.entries())?.isEmpty == true)
    }

    @Test("after a project's create is discarded, its id stays the local one: never an empty id")
    func discardedParentKeepsItsLocalID() async throws {
        // Given: a project made offline with two tasks, refused by the API and discarded
        let api = try API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let localID = try #require(await projectWithTwoTasks(try device(file, api, online: false)))
        api.projects.refuse("POST /projects", status: 422, body: #"{"error": "name taken"}"#)
        let online = try device(file, api, online: true)
        _ = await PromiseExpectations.value(of: online.projects.sync())
        _ = await PromiseExpectations.value(of: online.projects.discard(id: localID))

        // When
        let current = await PromiseExpectations.value(of: online.projects.currentID(of: localID))
        _ = await PromiseExpectations.value(of: online.tasks.sync())
        let tasks = await PromiseExpectations.value(of: online.tasks.snapshot())

        // Then
        #expect(current == localID)
        #expect(tasks?.values.map(\.projectID) == [localID, localID])
    }
}
