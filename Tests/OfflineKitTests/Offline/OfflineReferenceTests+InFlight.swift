import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// Related records with several changes in flight: a sub-task is held back while its parent's
/// create is in flight, and goes in the same sync once it is answered.
extension OfflineReferenceTests {
    @Test("a sub-task waits for its parent's answer while other tasks go beside the parent, then goes")
    func subTaskWaitsWhileOthersGo() async throws {
        // Given: tasks made offline, a sub-task among them; an API refusing a task that names a
        // parent by an id it did not give (`tasks-N`), and holding requests until three are in
        // flight together
        let overlaps = OutboxInFlightTests.Overlaps(gather: 3)
        let checking = TestResourceAPI(
            collection: "tasks",
            accepting: { body in
                guard let task = try? APIClient.decode(PlannedTask.self, from: body) else { return nil }
                if let parent = task.parentID, !parent.hasPrefix("tasks-") { return nil }
                return body
            })
        let server = try TestHTTPServer { request in
            overlaps.serve(request) { checking.respond(request) }
        }
        defer { server.stop() }
        let database = try Database(at: folder.file("app.sqlite"))
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let tasks = OfflineCollection<PlannedTask>(database: database, collection: "tasks", client: client)
            .referencing(.field(\.parentID, to: "tasks"))
        let offline = OfflineCollection<PlannedTask>(
            database: database, collection: "tasks", client: client, reachability: Offline())
        _ = await PromiseExpectations.value(of: offline.create(PlannedTask(title: "Call")))
        let move = await PromiseExpectations.value(of: offline.create(PlannedTask(title: "Move")))
        _ = await PromiseExpectations.value(
            of: offline.create(PlannedTask(title: "Pack", parentID: move?.id)))
        for title in ["Shop", "Cook"] {
            _ = await PromiseExpectations.value(of: offline.create(PlannedTask(title: title)))
        }

        // When
        let report = await PromiseExpectations.value(of: tasks.sync())

        // Then: all five sent in one sync, none refused; Move went beside Shop and Cook, and Pack
        // after Move's answer, naming its API id
        #expect(report?.sent.count == 5 && report?.refused.isEmpty == true, "\(String(describing: report))")
        #expect(overlaps.most.atOnce == 3)
        let stored = checking.resources(as: PlannedTask.self)
        let moveID = stored.first { $0.title == "Move" }?.id
        #expect(moveID != nil && stored.first { $0.title == "Pack" }?.parentID == moveID)
    }
}
