import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// One scheduler for several collections of a database (`SyncScheduler(syncing:)`): each sent in
/// the order given, a change queued in any of them a trigger.
@Suite("SyncScheduler for collections")
struct SyncSchedulerCollectionsTests {
    let folder = TemporaryFolder("SyncSchedulerCollectionsTests")

    @Test("projects then tasks, by themselves: a project and its task made offline go in one sync")
    func collectionsInOrder() async throws {
        // Given: a project and a task in it, made offline; a scheduler for both, projects first
        let api = try OfflineReferenceTests.API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let client = APIClient(baseURL: api.server.baseURL, timeout: 30, retry: .never)
        let offline = ProjectsAndTasks(
            database: try Database(at: file), client: client, reachability: OfflineCollectionTests.Offline())
        let project = await PromiseExpectations.value(of: offline.projects.create(Project(name: "House")))
        _ = await PromiseExpectations.value(
            of: offline.tasks.create(PlannedTask(title: "Paint", projectID: project?.id)))
        let online = ProjectsAndTasks(
            database: try Database(at: file), client: client, reachability: .assumeReachable)
        let clock = TestClock()
        let scheduler = SyncScheduler(syncing: [online.projects, online.tasks], clock: clock)
        let states = DeliveryRecorder<SyncSchedulerState>()
        let observation = scheduler.observe(on: .inline) { states.record($0) }
        defer { observation.cancel() }

        // When: started
        scheduler.start()
        _ = await states.next { $0 == .syncing }
        _ = await states.next { $0 == .idle }

        // Then: one sync sent both, the task naming the API's project; the report is both syncs'
        #expect(api.projects.applied == ["POST /projects"])
        #expect(api.tasks.resources(as: PlannedTask.self).map(\.projectID) == ["projects-1"])
        #expect(scheduler.lastReport?.sent.count == 2)
        #expect(scheduler.lastReport?.newIDs[project?.id ?? ""] == "projects-1")

        // When: a task queued by another process, in the second collection
        _ = await PromiseExpectations.value(of: offline.tasks.create(PlannedTask(title: "Sweep")))

        // Then: it syncs by itself, once the burst had its 0.2 s
        _ = await states.next {
            if case .waiting = $0 { return true }
            return false
        }
        clock.advance(0.2)
        _ = await states.next { $0 == .syncing }
        _ = await states.next { $0 == .idle }
        #expect(api.tasks.applied == ["POST /tasks", "POST /tasks"])
        _ = await PromiseExpectations.value(of: scheduler.stop())
    }

    @Test("reports combined: what each sent, waits added, first stop, earliest retry, a claim held elsewhere")
    func reportsCombined() {
        // Given
        let entry = OutboxEntry(
            sequence: 1, localID: "a", method: .post, path: "tasks", body: nil, idempotencyKey: "k",
            state: .pending, createdAt: Date(timeIntervalSince1970: 0))
        let first = OutboxSyncReport(sent: [entry], newIDs: ["a": "tasks-1"], waiting: 1)
        let second = OutboxSyncReport(
            waiting: 2, stoppedBecause: .httpStatus(503), retryAt: Date(timeIntervalSince1970: 10))
        var third = OutboxSyncReport(stoppedBecause: .noNetwork, retryAt: Date(timeIntervalSince1970: 20))
        third.sendingElsewhere = true

        // When
        let combined = OutboxSyncReport(combining: [first, second, third])

        // Then
        #expect(combined.sent == [entry] && combined.newIDs == ["a": "tasks-1"])
        #expect(combined.waiting == 3)
        #expect(combined.stoppedBecause == .httpStatus(503))
        #expect(combined.retryAt == Date(timeIntervalSince1970: 10))
        #expect(combined.sendingElsewhere)
    }
}
