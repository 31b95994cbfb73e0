import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// `SyncedCollections.sync(_:)` and `SyncNotice+Report.swift`: several collections sent in one
/// call, parents first, and what the sync did in words.
@Suite("Synced collections and the report's wording")
struct SyncedCollectionsTests {
    let folder = TemporaryFolder("SyncedCollectionsTests")

    @Test("one call sends a project and its tasks made offline, the project first, and says so in words")
    func projectsThenTasks() async throws {
        // Given: a project and two tasks in it, made offline
        let api = try OfflineReferenceTests.API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let offline = try OfflineReferenceTests().device(file, api, online: false)
        let project = await OfflineReferenceTests().projectWithTwoTasks(offline) ?? ""
        let online = try OfflineReferenceTests().device(file, api, online: true)

        // When
        let report = await PromiseExpectations.value(
            of: SyncedCollections.sync([online.projects, online.tasks]))

        // Then: everything sent, the tasks naming the API's project; worded as it happened
        let wording = SyncNotice(server: "the API")
        #expect(report?.sent.count == 3 && report?.waiting == 0, "\(String(describing: report))")
        #expect(api.tasks.resources(as: PlannedTask.self).allSatisfy { $0.projectID == "projects-1" })
        #expect(report.map(wording.summary) == "Changes: 3 sent.")
        let details = report.map(wording.details) ?? []
        #expect(
            details.count == 3 && details.contains("\(project) is projects-1 at the API now."), "\(details)")
    }

    @Test("a sync that stopped and refused says what, how many wait, and why it stopped")
    func stoppedSummary() {
        // Given
        let refused = OutboxEntry(
            sequence: 1, localID: "t1", method: .post, path: "tasks", body: nil, idempotencyKey: "k",
            state: .refused(reason: "HTTP 400: no title"), createdAt: Date(timeIntervalSince1970: 0))
        let report = OutboxSyncReport(refused: [refused], waiting: 2, stoppedBecause: .answerLost)

        // When
        let wording = SyncNotice(server: "the shop")

        // Then
        #expect(
            wording.summary(report)
                == "Changes: 1 refused; 2 waiting. Stopped: The server may have received the change; it will be checked at the next sync."
        )
        #expect(wording.details(report) == ["t1: refused by the shop: HTTP 400: no title"])
        #expect(wording.summary(OutboxSyncReport()) == "Nothing to send.")
    }
}
