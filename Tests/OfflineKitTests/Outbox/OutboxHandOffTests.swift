import Foundation
import PromiseMVPTestServer
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// `OfflineCollection.handOff()`: the changes a sync would send, written to a `TransferSpool` for a
/// transfer that outlives the process (here `BackgroundTransfers` in this process, as
/// `demo transfers run` runs it), and their answers recorded by the next sync as its own, once.
@Suite("Outbox hand-off")
struct OutboxHandOffTests {
    typealias API = OfflineReferenceTests.API
    let folder = TemporaryFolder("OutboxHandOffTests")
    var spool: TransferSpool { TransferSpool(folder: folder.file("Transfers")) }
    var file: URL { folder.file("app.sqlite") }

    /// One process's view of the file, handing off through the test's spool.
    func device(_ api: API, online: Bool = true) throws -> ProjectsAndTasks {
        let device = try OfflineReferenceTests().device(file, api, online: online)
        return ProjectsAndTasks(
            projects: device.projects.handingOff(to: spool), tasks: device.tasks.handingOff(to: spool))
    }

    /// Runs the spool as the transfer service would: every request waiting, sent and answered.
    func runTransfers() async -> Int? {
        let transfers = BackgroundTransfers(spool: spool, identifier: "tests.\(UUID())")
        defer { transfers.finish() }
        return await PromiseExpectations.value(of: transfers.resume())
    }

    @Test("handed off: no request; answered by the service: recorded by the next sync, children sent after")
    func handedOffThenRecorded() async throws {
        // Given: offline, a project with two tasks, and a task of no project
        let api = try API()
        defer { api.server.stop() }
        let offline = try device(api, online: false)
        let project = try #require(
            await PromiseExpectations.value(of: offline.projects.create(Project(name: "House"))))
        for title in ["Paint", "Sweep"] {
            _ = await PromiseExpectations.value(
                of: offline.tasks.create(PlannedTask(title: title, projectID: project.id)))
        }
        _ = await PromiseExpectations.value(of: offline.tasks.create(PlannedTask(title: "Call mum")))
        let app = try device(api)

        // When: handed off, twice, and synced before the service ran
        let projects = await PromiseExpectations.value(of: app.projects.handOff())
        let tasks = await PromiseExpectations.value(of: app.tasks.handOff())
        let again = await PromiseExpectations.value(of: app.tasks.handOff())
        let early = await PromiseExpectations.value(of: app.sync())

        // Then: the project and the free task are the service's; nothing reached the API
        #expect(projects?.handedOff.map(\.method) == [.post] && tasks?.handedOff.count == 1)
        #expect(again?.handedOff.isEmpty == true)
        #expect(api.server.requests.isEmpty && spool.waiting().count == 2)
        #expect(early?.allSatisfy { $0.sent.isEmpty } == true && early?.last?.waiting == 3)

        // When: the service sends them, then the app syncs
        #expect(await runTransfers() == 2)
        let fromService = api.server.requests.count
        let answeredAgain = await PromiseExpectations.value(of: app.projects.handOff())
        let reports = await PromiseExpectations.value(of: app.sync())

        // Then: the two answers recorded (the project's id kept), the two tasks sent naming it, each once
        #expect(fromService == 2)
        #expect(answeredAgain?.handedOff.isEmpty == true)  // answered: recorded, not handed off again
        #expect(reports?.first?.newIDs == [project.id ?? "": "projects-1"])
        #expect(reports?.last?.sent.count == 3)
        #expect(api.projects.applied == ["POST /projects"])
        #expect(api.tasks.applied == ["POST /tasks", "POST /tasks", "POST /tasks"])
        #expect(api.server.requests.count == fromService + 2)
        #expect(Set(api.tasks.resources(as: PlannedTask.self).map(\.projectID)) == [nil, "projects-1"])
        let kept = await PromiseExpectations.value(of: app.tasks.list(policy: .cacheOnly))
        #expect(kept?.value.values.compactMap(\.projectID) == ["projects-1", "projects-1"])
        #expect(await PromiseExpectations.value(of: app.tasks.outbox.entries())?.isEmpty == true)
        #expect(spool.all().isEmpty)
    }

    @Test("two processes recording the same answers record each once, and send none again")
    func twoProcessesRecordOnce() async throws {
        // Given: six projects made offline, handed off, sent by the service
        let api = try API()
        defer { api.server.stop() }
        let offline = try device(api, online: false)
        for name in (1...6).map({ "Project \($0)" }) {
            _ = await PromiseExpectations.value(of: offline.projects.create(Project(name: name)))
        }
        let handed = await PromiseExpectations.value(of: try device(api).projects.handOff())
        #expect(handed?.handedOff.count == 6)
        #expect(await runTransfers() == 6)
        let fromService = api.server.requests.count

        // When: two processes (two connections to the file, each its own claim) sync at once
        let (first, second) = (try device(api), try device(api))
        async let one = PromiseExpectations.value(of: first.projects.sync())
        async let two = PromiseExpectations.value(of: second.projects.sync())
        let reports = [await one, await two].compactMap { $0 }

        // Then: six recorded in all, each once; nothing sent again; nothing waits
        #expect(reports.count == 2)
        #expect(reports.map(\.sent.count).reduce(0, +) == 6)
        let newIDs = reports.flatMap(\.newIDs)
        #expect(newIDs.count == 6 && Set(newIDs.map(\.value)).count == 6)
        #expect(api.projects.applied.count == 6 && api.server.requests.count == fromService)
        #expect(await PromiseExpectations.value(of: first.projects.outbox.entries())?.isEmpty == true)
    }

    @Test("a request gone from the spool is taken back and sent by the sync, with its key")
    func lostRequestTakenBack() async throws {
        // Given: a project handed off, and the spool emptied before the service ran
        let api = try API()
        defer { api.server.stop() }
        let app = try device(api)
        _ = await PromiseExpectations.value(
            of: try device(api, online: false).projects.create(Project(name: "A")))
        _ = await PromiseExpectations.value(of: app.projects.handOff())
        let key = await PromiseExpectations.value(of: app.projects.outbox.entries())?.first?.idempotencyKey
        for name in spool.all() { spool.remove(name) }

        // When
        let report = await PromiseExpectations.value(of: app.projects.sync())

        // Then
        #expect(report?.sent.count == 1)
        #expect(api.projects.writes.map(\.key) == [key])
    }

    @Test("a spool that cannot be written: the hand-off fails, and the change is the outbox's again")
    func unwritableSpoolTakesBack() async throws {
        // Given: a project made offline, and a file where the spool's folder goes
        let api = try API()
        defer { api.server.stop() }
        let app = try device(api)
        _ = await PromiseExpectations.value(
            of: try device(api, online: false).projects.create(Project(name: "A")))
        try? FileManager.default.removeItem(at: folder.file("Transfers"))
        try Data("not a folder".utf8).write(to: folder.file("Transfers"))

        // When
        let error = await PromiseExpectations.error(of: app.projects.handOff())
        let between = await PromiseExpectations.value(of: app.projects.outbox.entries())
        let report = await PromiseExpectations.value(of: app.projects.sync())

        // Then: rejected with why; taken back, so the sync sends it
        #expect(error != nil)
        #expect(between?.count == 1 && between?.first?.transfer == nil)
        #expect(report?.sent.count == 1 && api.projects.applied == ["POST /projects"])
    }

    @Test("a transfer that found no network leaves the change to the next sync, which sends it once")
    func failedTransferSentAgain() async throws {
        // Given: a project handed off, and the service's attempt made no connection
        let api = try API()
        defer { api.server.stop() }
        let app = try device(api)
        _ = await PromiseExpectations.value(
            of: try device(api, online: false).projects.create(Project(name: "A")))
        let handed = try #require(
            await PromiseExpectations.value(of: app.projects.handOff())?.handedOff.first)
        try spool.record(SpooledAnswer(failure: .notConnectedToInternet), for: try #require(handed.transfer))

        // When: synced twice
        let first = await PromiseExpectations.value(of: app.projects.sync())
        let between = await PromiseExpectations.value(of: app.projects.outbox.entries())
        let second = await PromiseExpectations.value(of: app.projects.sync())

        // Then: the first read the failure (offline: nothing counted) and sent nothing; the second sent it
        #expect(first?.stoppedBecause == .noNetwork && first?.sent.isEmpty == true)
        #expect(between?.count == 1 && between?.first?.transfer == nil)  // the outbox's again
        #expect(second?.sent.count == 1 && api.projects.applied == ["POST /projects"])
        #expect(api.projects.writes.map(\.key) == [handed.idempotencyKey])
    }
}
