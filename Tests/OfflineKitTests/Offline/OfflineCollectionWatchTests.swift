import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// `OfflineCollection.observe` and `list`: one snapshot of values and their states, after every
/// change, and a listing that only reads.
@Suite("OfflineCollection snapshots")
struct OfflineCollectionWatchTests {
    typealias Task = OfflineCollectionTests.Task
    let folder = TemporaryFolder("OfflineCollectionWatchTests")
    let api = TestResourceAPI(collection: "tasks", resources: [["id": "t1", "title": "Milk"]])

    func tasks(_ server: TestHTTPServer, online: Bool) throws -> OfflineCollection<Task> {
        OfflineCollection<Task>(
            database: try Database(at: folder.file("tasks.sqlite")), collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never),
            reachability: online ? AssumeReachable() : OfflineCollectionTests.Offline())
    }

    @Test(
        "a snapshot comes at once, then after each change with each value's state; an equal one is not sent again"
    )
    func observeDeliversSnapshots() async throws {
        // Given: the list loaded once, then watched offline
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        _ = await PromiseExpectations.value(of: try tasks(server, online: true).list())
        let tasks = try tasks(server, online: false)
        let shown = DeliveryRecorder<OfflineSnapshot<Task>>()
        let observation = tasks.observe(on: .inline) {
            if case .success(let snapshot) = $0 { shown.record(snapshot) }
        }
        defer { observation.cancel() }
        let first = await shown.next()

        // When: a change, a write that changes nothing shown, then another change
        let created = await PromiseExpectations.value(of: tasks.create(Task(title: "Bread")))
        let afterCreate = await shown.next()
        _ = await PromiseExpectations.value(of: tasks.retry(id: created?.id ?? ""))
        _ = await PromiseExpectations.value(of: tasks.update(Task(id: "t1", version: "1", title: "Oat milk")))
        let afterUpdate = await shown.next()

        // Then
        #expect(first?.items.map(\.state) == [.synced] && first?.savedAt != nil)
        #expect(afterCreate?.values.map(\.title) == ["Milk", "Bread"])
        #expect(afterCreate?.items.map(\.state) == [.synced, .pending])
        #expect(
            afterUpdate?.values.map(\.title) == ["Oat milk", "Bread"] && afterUpdate?.status.waiting == 2)
        #expect(shown.all.count == 3)
    }

    @Test("another connection's commit to the file reaches the observation")
    func observeFollowsAnotherConnection() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let watched = try tasks(server, online: false)
        let shown = DeliveryRecorder<OfflineSnapshot<Task>>()
        let observation = watched.observe(on: .inline) {
            if case .success(let snapshot) = $0 { shown.record(snapshot) }
        }
        defer { observation.cancel() }
        _ = await shown.next()

        // When: another database on the same file, as another process would
        _ = await PromiseExpectations.value(of: try tasks(server, online: false).create(Task(title: "Eggs")))

        // Then
        let next = await shown.next { $0.values.map(\.title) == ["Eggs"] }
        #expect(next?.items.first?.state == .pending)
    }

    @Test("a listing only reads: waiting changes are laid over the answer, not sent, unless asked")
    func listingDoesNotSend() async throws {
        // Given: a task created offline
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        _ = await PromiseExpectations.value(of: try tasks(server, online: false).create(Task(title: "Eggs")))
        let online = try tasks(server, online: true)

        // When
        let listed = await PromiseExpectations.value(of: online.list())
        let sentFirst = api.applied
        let listedAfterSending = await PromiseExpectations.value(of: online.list(sendingFirst: true))

        // Then
        #expect(sentFirst.isEmpty)
        #expect(listed?.value.values.map(\.title) == ["Milk", "Eggs"])
        #expect(listed?.value.items.map(\.state) == [.synced, .pending] && listed?.source == .network)
        #expect(api.applied == ["POST /tasks"])
        #expect(listedAfterSending?.value.items.map(\.state) == [.synced, .synced])
    }

    @Test("asked for the copy alone, a listing sends nothing, even asked to send first")
    func copyAloneDoesNotSend() async throws {
        // Given: the copy listed, then a task created offline
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let online = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: online.list())
        _ = await PromiseExpectations.value(of: try tasks(server, online: false).create(Task(title: "Eggs")))

        // When
        let listed = await PromiseExpectations.value(of: online.list(policy: .cacheOnly, sendingFirst: true))

        // Then: the change still waits, laid over the copy
        #expect(api.applied.isEmpty)
        #expect(listed?.source.savedAt != nil)
        #expect(listed?.value.items.map(\.state) == [.synced, .pending])
    }

    @Test("a fresh listing the copy cannot take is still shown as the API gave it, and says so")
    func unsavedListingIsShown() async throws {
        // Given: the copy listed, a database that refuses to change it, and a task edited in the API
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let online = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: online.list())
        _ = await PromiseExpectations.value(
            of: try Database(at: folder.file("tasks.sqlite")).write { connection in
                try connection.execute(
                    """
                    CREATE TRIGGER refuse_copy BEFORE UPDATE ON offline_resources
                    BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                    """)
            })
        api.edit("t1", ["title": "Bread"])

        // When
        let listed = await PromiseExpectations.value(of: online.list())

        // Then: the API's answer, not the copy read back
        #expect(listed?.source == .network)
        #expect(listed?.cacheWriteError != nil)
        #expect(listed?.value.values.map(\.title) == ["Bread"])
    }

    @Test("a change to the outbox alone (a sync meeting a conflict) reaches the observation")
    func observeFollowsTheOutbox() async throws {
        // Given: one database, watched, with an edit made offline and another in the API
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let database = try Database(at: folder.file("tasks.sqlite"))
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let online = OfflineCollection<Task>(database: database, collection: "tasks", client: client)
        let offline = OfflineCollection<Task>(
            database: database, collection: "tasks", client: client,
            reachability: OfflineCollectionTests.Offline())
        _ = await PromiseExpectations.value(of: online.list())
        _ = await PromiseExpectations.value(of: offline.update(Task(id: "t1", version: "1", title: "Mine")))
        api.edit("t1", ["title": "Theirs"])
        let shown = DeliveryRecorder<OfflineSnapshot<Task>>()
        let observation = offline.observe(on: .inline) {
            if case .success(let snapshot) = $0 { shown.record(snapshot) }
        }
        defer { observation.cancel() }
        _ = await shown.next()

        // When
        _ = await PromiseExpectations.value(of: online.sync())

        // Then
        let conflicted = await shown.next { $0.status.conflicted == 1 }
        #expect(conflicted?.conflicts.first?.theirs?.title == "Theirs")
    }
}
