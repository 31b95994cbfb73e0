import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// Conflicts as the resource, settled by the user (mine, theirs, merged) or by the collection's
/// own rule; online and offline alike.
@Suite("OfflineCollection conflicts")
struct OfflineCollectionConflictTests {
    typealias Task = OfflineCollectionTests.Task
    let folder = TemporaryFolder("OfflineCollectionConflictTests")
    let api = TestResourceAPI(collection: "tasks", resources: [["id": "t1", "title": "Milk", "note": "2 l"]])

    func tasks(_ server: TestHTTPServer, online: Bool) throws -> OfflineCollection<Task> {
        OfflineCollection<Task>(
            database: try Database(at: folder.file("tasks.sqlite")), collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never),
            reachability: online ? AssumeReachable() : OfflineCollectionTests.Offline())
    }

    /// Given: the list loaded, the title changed offline to "Mine", then in the API to "Theirs".
    func conflictingEdits(_ server: TestHTTPServer) async throws {
        _ = await PromiseExpectations.value(of: try tasks(server, online: true).list())
        let offline = try tasks(server, online: false)
        _ = await PromiseExpectations.value(
            of: offline.update(Task(id: "t1", version: "1", title: "Mine", note: "2 l")))
        api.edit("t1", ["title": "Theirs"])
    }

    @Test("a conflict comes as the resource: mine, theirs, the base and the fields that differ")
    func conflictIsTyped() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await conflictingEdits(server)
        let tasks = try tasks(server, online: true)

        // When
        _ = await PromiseExpectations.value(of: tasks.sync())
        let conflict = try #require(await PromiseExpectations.value(of: tasks.conflict(id: "t1")) ?? nil)
        let snapshot = await PromiseExpectations.value(of: tasks.snapshot())

        // Then
        #expect(conflict.mine?.title == "Mine" && conflict.theirs?.title == "Theirs")
        #expect(conflict.base?.title == "Milk" && conflict.fields == ["title"] && !conflict.deletedThere)
        #expect(snapshot?.conflict(of: "t1") == conflict && snapshot?.values.map(\.title) == ["Mine"])
    }

    @Test("a merged value settles the conflict, goes over their version, and a later change follows it")
    func mergedResolution() async throws {
        // Given: a change of the note made after the conflict, waiting behind it
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await conflictingEdits(server)
        let tasks = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: tasks.sync())
        _ = await PromiseExpectations.value(
            of: try self.tasks(server, online: false).update(Task(id: "t1", title: "Mine", note: "3 l")))

        // When
        let resolved = await PromiseExpectations.value(
            of: tasks.resolve(id: "t1", with: .merged(Task(title: "Mine and theirs", note: "2 l"))))
        let shown = await PromiseExpectations.value(of: tasks.snapshot())
        let report = await PromiseExpectations.value(of: tasks.sync())

        // Then
        #expect(resolved == 1)
        #expect(shown?.values == [Task(id: "t1", version: "2", title: "Mine and theirs", note: "3 l")])
        #expect(report?.sent.count == 2 && report?.conflicted.isEmpty == true)
        #expect(api.field("title", of: "t1") == "Mine and theirs" && api.field("note", of: "t1") == "3 l")
    }

    @Test("keeping theirs shows the API's value and drops the change in conflict")
    func theirsResolution() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await conflictingEdits(server)
        let tasks = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: tasks.sync())

        // When
        _ = await PromiseExpectations.value(of: tasks.resolve(id: "t1", with: .theirs))

        // Then
        let shown = await PromiseExpectations.value(of: tasks.snapshot())
        #expect(
            shown?.values.map(\.title) == ["Theirs"] && shown?.status == .empty
                && shown?.conflicts.isEmpty == true)
    }

    @Test("the collection's own merge rule settles a conflict the fields cannot, before the user sees it")
    func mergeRule() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await conflictingEdits(server)
        let tasks = try tasks(server, online: true).merging { base, mine, theirs in
            base?.title == "Milk" ? Task(title: mine.title + " / " + theirs.title, note: mine.note) : nil
        }

        // When
        let report = await PromiseExpectations.value(of: tasks.sync())

        // Then
        #expect(report?.merged.count == 1 && report?.conflicted.isEmpty == true)
        #expect(api.field("title", of: "t1") == "Mine / Theirs")
        #expect(
            await PromiseExpectations.value(of: tasks.snapshot())?.values.map(\.title) == ["Mine / Theirs"])
    }

    @Test("a merge rule that gives nothing leaves the conflict to the user")
    func mergeRuleDeclines() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await conflictingEdits(server)
        let tasks = try tasks(server, online: true).merging { _, _, _ in nil }

        // When
        let report = await PromiseExpectations.value(of: tasks.sync())

        // Then
        #expect(report?.conflicted.count == 1 && api.field("title", of: "t1") == "Theirs")
    }

    @Test(
        "online, a delete of something changed elsewhere fails with the conflict, theirs shown against the deletion"
    )
    func onlineDeleteConflictIsKept() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: tasks.list())
        api.edit("t1", ["note": "1 l"])

        // When
        let error = await PromiseExpectations.error(of: tasks.delete(id: "t1"))
        let snapshot = await PromiseExpectations.value(of: tasks.snapshot())

        // Then
        let conflict = error as? OfflineConflict<Task>
        #expect(conflict?.mine == nil && conflict?.theirs?.note == "1 l" && !(conflict?.deletedThere ?? true))
        #expect(snapshot?.conflicts.map(\.id) == ["t1"] && api.ids == ["t1"])
    }

    @Test("online, an update over someone else's change fails with the conflict and keeps it, as offline")
    func onlineConflictIsKept() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: tasks.list())
        api.edit("t1", ["note": "1 l"])

        // When
        let error = await PromiseExpectations.error(
            of: tasks.update(Task(id: "t1", version: "1", title: "Milk", note: "3 l")))
        let snapshot = await PromiseExpectations.value(of: tasks.snapshot())
        _ = await PromiseExpectations.value(of: tasks.resolve(id: "t1", with: .mine))
        _ = await PromiseExpectations.value(of: tasks.sync())

        // Then
        let conflict = error as? OfflineConflict<Task>
        #expect(
            conflict?.mine?.note == "3 l" && conflict?.theirs?.note == "1 l" && conflict?.fields == ["note"])
        #expect(ServiceRequestError(error ?? ServiceRequestError.noData) == .httpStatus(412))
        #expect(snapshot?.conflicts == (conflict.map { [$0] } ?? []))
        #expect(api.field("note", of: "t1") == "3 l")
    }
}
