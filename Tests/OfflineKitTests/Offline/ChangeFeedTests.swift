import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// `OfflineCollection.refresh()` through the API's `Sync-Token` feed: only what changed comes
/// down, applied at once; an unknown token or an unusable feed lists whole; changes waiting here
/// are never overwritten.
@Suite("Change feed")
struct ChangeFeedTests {
    typealias Task = OfflineCollectionTests.Task
    let folder = TemporaryFolder("ChangeFeedTests")
    let api = TestResourceAPI(
        collection: "tasks",
        resources: [
            ["id": "t1", "title": "Milk"], ["id": "t2", "title": "Eggs"], ["id": "t3", "title": "Tea"],
        ])

    func tasks(_ server: TestHTTPServer, online: Bool = true) throws -> OfflineCollection<Task> {
        OfflineCollection<Task>(
            database: try Database(at: folder.file("tasks.sqlite")), collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never),
            reachability: online ? AssumeReachable() : OfflineCollectionTests.Offline()
        ).followingChanges()
    }

    func feedRequests(_ server: TestHTTPServer) -> Int {
        server.requests.filter { $0.contains("since=") }.count
    }

    @Test("changes (two in one page) and deletions come down through the feed alone, in one snapshot")
    func feedAppliedAtOnce() async throws {
        // Given: listed once, then changed in the API, watched
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())
        api.edit("t1", ["title": "Oat milk"])
        api.edit("t3", ["title": "Green tea"])
        api.delete("t2")
        let shown = DeliveryRecorder<OfflineSnapshot<Task>>()
        let observation = tasks.observe(on: .inline) {
            if case .success(let snapshot) = $0 { shown.record(snapshot) }
        }
        defer { observation.cancel() }
        _ = await shown.next()

        // When
        let outcome = await PromiseExpectations.value(of: tasks.refresh())
        let refreshed = await PromiseExpectations.value(of: tasks.snapshot())
        let next = await shown.next()

        // Then
        #expect(refreshed?.values.map(\.title) == ["Oat milk", "Green tea"])
        #expect(outcome == .applied(changes: 2, deletions: 1))
        #expect(
            next?.values.map(\.title) == ["Oat milk", "Green tea"], "every change in the first snapshot after"
        )
        #expect(api.listings.full == 1 && feedRequests(server) == 1)
    }

    @Test("a long feed comes in pages, all applied")
    func pagedFeed() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())
        api.feedPageSize = 1
        api.edit("t1", ["title": "Oat milk"])
        api.edit("t2", ["title": "Brown eggs"])
        api.delete("t3")

        // When
        let outcome = await PromiseExpectations.value(of: tasks.refresh())
        let refreshed = await PromiseExpectations.value(of: tasks.snapshot())

        // Then
        #expect(refreshed?.values.map(\.title) == ["Oat milk", "Brown eggs"])
        #expect(outcome == .applied(changes: 2, deletions: 1))
        #expect(feedRequests(server) == 3 && api.listings.full == 1)
    }

    @Test("a token the API no longer knows (410) lists whole")
    func expiredTokenListsWhole() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())
        api.edit("t1", ["title": "Oat milk"])
        api.expireTokens()

        // When
        let outcome = await PromiseExpectations.value(of: tasks.refresh())
        let refreshed = await PromiseExpectations.value(of: tasks.snapshot())

        // Then
        #expect(refreshed?.values.map(\.title) == ["Oat milk", "Eggs", "Tea"])
        #expect(outcome == .listed(count: 3))
        #expect(api.listings.full == 2 && api.listings.notModified == 0)
    }

    @Test("after a 410 the listing asks without the old validators: a new token is kept, not the dead one")
    func expiredTokenListsWithoutValidators() async throws {
        // Given: an API whose listing has not changed (ETag "e1") but which forgot token t1; it
        // answers a listing that names "e1" with 304, one without with the new token t2
        let listings = TestLog<String>()
        let server = try TestHTTPServer { request in
            if request.path.contains("since=t1") { return .status(410, body: #"{"error": "gone"}"#) }
            if request.path.contains("since=t2") {
                return .status(200, body: #"{"changes": [], "deleted": [], "next": "t2"}"#)
            }
            if request.headers["if-none-match"] == #""e1""# { return .status(304, body: "") }
            listings.append(request.path)
            let token = listings.elements.count == 1 ? "t1" : "t2"
            return .status(
                200, body: #"[{"id": "t1", "title": "Milk"}]"#,
                headers: ["ETag": #""e1""#, "Sync-Token": token])
        }
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())

        // When: refreshed twice
        let first = await PromiseExpectations.value(of: tasks.refresh())
        let second = await PromiseExpectations.value(of: tasks.refresh())

        // Then: the first listed whole, without If-None-Match (a 304 would have kept the dead
        // token, and every refresh met the 410 again)
        #expect(first == .listed(count: 1), "\(String(describing: first))")
        #expect(server.requests.filter { $0.contains("since=t1") }.count == 1, "\(server.requests)")
        #expect(second == .applied(changes: 0, deletions: 0), "\(String(describing: second))")
    }

    @Test(
        "a feed that cannot be used lists whole and applies none of it",
        arguments: [
            #"{"changes": 5}"#,
            #"{"changes":[{"id":"t1","title":"A"},{"id":"t1","title":"B"}],"deleted":[],"next":"x"}"#,
            #"{"changes":[{"id":"t9","title":"Never"}],"deleted":[],"next":"TOKEN","more":true}"#,
        ])
    func unusableFeedListsWhole(body: String) async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())
        api.edit("t1", ["title": "Oat milk"])
        // The token the listing gave: three resources kept, so the API was at revision 3.
        api.refuse(
            matching: { $0.path.contains("since=") }, status: 200,
            body: body.replacingOccurrences(of: "TOKEN", with: "rev-3"))

        // When
        let outcome = await PromiseExpectations.value(of: tasks.refresh())
        let refreshed = await PromiseExpectations.value(of: tasks.snapshot())

        // Then
        #expect(refreshed?.values.map(\.title) == ["Oat milk", "Eggs", "Tea"])
        #expect(outcome == .listed(count: 3) && api.listings.full == 2)
        #expect(feedRequests(server) == 1, "one page asked, never a loop")
    }

    @Test(
        "a change waiting here keeps its value through a refresh, then meets theirs as a conflict when sent")
    func waitingChangeIsNeverOverwritten() async throws {
        // Given: an edit made offline, and another of the same field in the API
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())
        _ = await PromiseExpectations.value(
            of: try self.tasks(server, online: false).update(Task(id: "t1", version: "1", title: "Mine")))
        api.edit("t1", ["title": "Theirs"])
        api.delete("t2")

        // When
        let outcome = await PromiseExpectations.value(of: tasks.refresh())
        let refreshed = await PromiseExpectations.value(of: tasks.snapshot())
        _ = await PromiseExpectations.value(of: tasks.sync())
        let conflict = await PromiseExpectations.value(of: tasks.conflict(id: "t1")) ?? nil

        // Then
        #expect(refreshed?.values.map(\.title) == ["Mine", "Tea"])
        #expect(outcome == .applied(changes: 1, deletions: 1))
        #expect(refreshed?.items.first?.state == .pending)
        #expect(conflict?.mine?.title == "Mine" && conflict?.theirs?.title == "Theirs")
        #expect(api.field("title", of: "t1") == "Theirs")
    }

    @Test(
        "deleted in the API while an edit waits here: kept through the refresh, then the 'deleted there' conflict"
    )
    func deletedThereWhileWaiting() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())
        _ = await PromiseExpectations.value(
            of: try self.tasks(server, online: false).update(Task(id: "t2", version: "1", title: "Mine")))
        api.delete("t2")

        // When
        let outcome = await PromiseExpectations.value(of: tasks.refresh())
        let refreshed = await PromiseExpectations.value(of: tasks.snapshot())
        _ = await PromiseExpectations.value(of: tasks.sync())
        let conflict = await PromiseExpectations.value(of: tasks.conflict(id: "t2")) ?? nil

        // Then
        #expect(refreshed?.values.map(\.title) == ["Milk", "Mine", "Tea"])
        #expect(outcome == .applied(changes: 0, deletions: 1))
        #expect(conflict?.deletedThere == true && conflict?.mine?.title == "Mine")
    }

    @Test("without a feed, an unchanged collection refreshes with a 304 that writes the date alone")
    func unchangedWithoutFeed() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = OfflineCollection<Task>(
            database: try Database(at: folder.file("plain.sqlite")), collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never))
        _ = await PromiseExpectations.value(of: tasks.list())

        // When
        let unchanged = await PromiseExpectations.value(of: tasks.refresh())
        api.edit("t3", ["title": "Green tea"])
        let changed = await PromiseExpectations.value(of: tasks.refresh())

        // Then
        #expect(unchanged == .unchanged && changed == .listed(count: 3))
        #expect(await PromiseExpectations.value(of: tasks.snapshot())?.values.last?.title == "Green tea")
        #expect(api.listings.full == 2 && api.listings.notModified == 1 && feedRequests(server) == 0)
    }
}
