import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Listings sent as conditional GETs: `304 Not Modified` keeps the copy, dated now, and writes no
/// row; a change anywhere in the collection brings the whole listing.
@Suite("Conditional refresh")
struct ConditionalRefreshTests {
    typealias Task = OfflineCollectionTests.Task
    let folder = TemporaryFolder("ConditionalRefreshTests")
    let api = TestResourceAPI(collection: "tasks", resources: [["id": "t1", "title": "Milk"]])

    func tasks(_ server: TestHTTPServer, clock: TestClock) throws -> (Database, OfflineCollection<Task>) {
        let database = try Database(at: folder.file("tasks.sqlite"))
        let tasks = OfflineCollection<Task>(
            database: database, collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never), now: { clock.now })
        return (database, tasks)
    }

    /// The rows written to the file so far (SQLite's count of changes on this connection).
    func rowsWritten(_ database: Database) async -> Int64? {
        await PromiseExpectations.value(
            of: database.read { connection -> Int64 in
                guard case .integer(let changes) = try connection.scalar("SELECT total_changes()") else {
                    return -1
                }
                return changes
            })
    }

    @Test("an unchanged collection is answered 304: the copy is kept, dated now, with no row written")
    func unchangedListingWritesNothing() async throws {
        // Given: a listing saved
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let clock = TestClock()
        let (database, tasks) = try tasks(server, clock: clock)
        _ = await PromiseExpectations.value(of: tasks.list())
        let written = await rowsWritten(database)
        clock.advance(60)

        // When
        let listed = await PromiseExpectations.value(of: tasks.list())
        let writtenBefore = await rowsWritten(database)
        _ = await PromiseExpectations.value(of: tasks.list())  // and again: the validators were kept

        // Then: one row, the copy's date, and nothing else
        #expect(api.listings.full == 1 && api.listings.notModified == 2)
        #expect(await rowsWritten(database) == writtenBefore.map { $0 + 1 })
        #expect(listed?.source == .network && listed?.value.values.map(\.title) == ["Milk"])
        #expect(listed?.value.savedAt == clock.now)
        #expect(writtenBefore == written.map { $0 + 1 })
    }

    @Test(
        "discarding a resource with nothing waiting keeps the copy's validators: the next listing is still a 304"
    )
    func discardingNothingKeepsValidators() async throws {
        // Given: a listing saved, and no change made here
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, tasks) = try tasks(server, clock: TestClock())
        _ = await PromiseExpectations.value(of: tasks.list())

        // When
        let dropped = await PromiseExpectations.value(of: tasks.discard(id: "t1"))
        let listed = await PromiseExpectations.value(of: tasks.list())

        // Then: nothing dropped, and the copy confirmed, not listed whole again
        #expect(dropped?.isEmpty == true)
        #expect(api.listings.full == 1 && api.listings.notModified == 1)
        #expect(listed?.value.values.map(\.title) == ["Milk"])
    }

    @Test("refresh() of an unchanged collection: a 304, unchanged, the copy dated now, one row written")
    func unchangedRefreshDatesTheCopy() async throws {
        // Given: a listing saved, a minute ago
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let clock = TestClock()
        let (database, tasks) = try tasks(server, clock: clock)
        _ = await PromiseExpectations.value(of: tasks.list())
        clock.advance(60)
        let writtenBefore = await rowsWritten(database)

        // When
        let refreshed = await PromiseExpectations.value(of: tasks.refresh())

        // Then: the copy's date, and nothing else
        #expect(refreshed == .unchanged)
        #expect(api.listings.notModified == 1)
        #expect(await rowsWritten(database) == writtenBefore.map { $0 + 1 })
        let copy = await PromiseExpectations.value(of: tasks.list(policy: .cacheOnly))
        #expect(copy?.value.savedAt == clock.now)
    }

    @Test("a change made in the API is listed whole, and its validators replace the old ones")
    func changedListingIsSavedWhole() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, tasks) = try tasks(server, clock: TestClock())
        _ = await PromiseExpectations.value(of: tasks.list())

        // When
        api.edit("t1", ["title": "Oat milk"])
        let changed = await PromiseExpectations.value(of: tasks.list())
        let again = await PromiseExpectations.value(of: tasks.list())

        // Then
        #expect(changed?.value.values.map(\.title) == ["Oat milk"])
        #expect(again?.value.values.map(\.title) == ["Oat milk"])
        #expect(api.listings.full == 2 && api.listings.notModified == 1)
    }

    @Test(
        "a change waiting here is still shown over a 304, and the copy saved without validators is asked whole"
    )
    func waitingChangeSurvivesAndPlainSaveDropsValidators() async throws {
        // Given: a listing saved, then an edit made offline
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let clock = TestClock()
        let (database, tasks) = try tasks(server, clock: clock)
        _ = await PromiseExpectations.value(of: tasks.list())
        let offline = OfflineCollection<Task>(
            database: database, collection: "tasks", client: APIClient(baseURL: server.baseURL),
            reachability: OfflineCollectionTests.Offline())
        _ = await PromiseExpectations.value(of: offline.update(Task(id: "t1", version: "1", title: "Mine")))

        // When: listed again (304), then the copy saved by a plain listing, then listed
        let kept = await PromiseExpectations.value(of: tasks.list())
        _ = await PromiseExpectations.value(
            of: tasks.list(policy: .networkFirst, showingCopy: { _ in }) {
                .value([Task(id: "t1", title: "Plain")])
            })
        _ = await PromiseExpectations.value(of: tasks.list())

        // Then
        #expect(kept?.value.values.map(\.title) == ["Mine"] && kept?.value.items.first?.state == .pending)
        #expect(api.listings.full == 2 && api.listings.notModified == 1)
    }

    @Test("a copy kept whole (CodableCache) is refreshed conditionally too")
    func codableCacheIsConditional() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let fallback = NetworkFallback(
            cache: CodableCache<[Task]>(
                database: try Database(at: folder.file("whole.sqlite")), name: "tasks"))
        let read = {
            fallback.fetch(policy: .networkFirst) { client.get("tasks", as: [Task].self, ifChangedSince: $0) }
        }

        // When
        _ = await PromiseExpectations.value(of: read())
        let second = await PromiseExpectations.value(of: read())

        // Then
        #expect(second?.value.map(\.title) == ["Milk"] && second?.source == .network)
        #expect(api.listings.full == 1 && api.listings.notModified == 1)
    }

    @Test("an answer with an ETag alone (no Last-Modified, no Sync-Token) is asked for again conditionally")
    func etagAloneIsAValidator() async throws {
        // Given: an API that sends nothing but an ETag, and 304 to a request that names it
        let asked = Locked<[String?]>([])
        let server = try TestHTTPServer(responder: { request in
            asked.withLock { $0.append(request.headers["if-none-match"]) }
            return request.headers["if-none-match"] == "\"v1\""
                ? .status(304, body: "")
                : .status(200, body: #"[{"id":"1","title":"Milk"}]"#, headers: ["ETag": "\"v1\""])
        })
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let fallback = NetworkFallback(
            cache: CodableCache<[Task]>(database: try Database(at: folder.file("etag.sqlite")), name: "tasks")
        )
        let read = {
            fallback.fetch(policy: .networkFirst) { client.get("tasks", as: [Task].self, ifChangedSince: $0) }
        }

        // When
        _ = await PromiseExpectations.value(of: read())
        let second = await PromiseExpectations.value(of: read())

        // Then
        #expect(asked.withLock { $0 } == [nil, "\"v1\""])
        #expect(second?.value.map(\.title) == ["Milk"])
    }

    @Test("a change discarded here drops the validators: the next listing is whole and shows the API's value")
    func discardAsksWhole() async throws {
        // Given: a listing saved, then an edit made offline, refused by the API and discarded
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (database, tasks) = try tasks(server, clock: TestClock())
        _ = await PromiseExpectations.value(of: tasks.list())
        let offline = OfflineCollection<Task>(
            database: database, collection: "tasks", client: APIClient(baseURL: server.baseURL),
            reachability: OfflineCollectionTests.Offline())
        _ = await PromiseExpectations.value(of: offline.update(Task(id: "t1", version: "1", title: "Mine")))
        api.refuse("PUT /tasks/t1", status: 422, body: #"{"error":"no"}"#)
        _ = await PromiseExpectations.value(of: tasks.sync())
        _ = await PromiseExpectations.value(of: offline.discard(id: "t1"))

        // When
        let listed = await PromiseExpectations.value(of: tasks.list())

        // Then
        #expect(listed?.value.values.map(\.title) == ["Milk"])
        #expect(api.listings.full == 2 && api.listings.notModified == 0)
    }

    @Test("a stamp set without validators drops those kept before")
    func plainStampDropsValidators() async throws {
        // Given
        let database = try Database(at: folder.file("stamps.sqlite"))

        // When
        let kept = await PromiseExpectations.value(
            of: database.write { connection -> CacheValidators? in
                try connection.setCacheStamp("copy", to: Date(), validators: CacheValidators(etag: #""v1""#))
                let kept = try connection.cacheValidators("copy")
                try connection.setCacheStamp("copy", to: Date())
                return kept
            })
        let after = await PromiseExpectations.value(of: database.read { try $0.cacheValidators("copy") })

        // Then
        #expect(kept == CacheValidators(etag: #""v1""#))
        #expect(after == .some(nil))
    }

    /// A cache that holds validators but lost its copy: what a `304` cannot be answered from.
    struct CopyLost: OfflineCache {
        let etag: String
        func save(_ value: [Task], at date: Date) -> Promise<Void> { .value(()) }
        func load() -> Promise<Cached<[Task]>?> { .value(nil) }
        func validators() -> Promise<CacheValidators?> { .value(CacheValidators(etag: etag)) }
        func confirm(at date: Date) -> Promise<Cached<[Task]>?> { .value(nil) }
    }

    @Test("a 304 with no copy left to keep is asked again whole, once")
    func notModifiedWithoutCopyAsksWhole() async throws {
        // Given: the API's current ETag, and a cache that lost its copy
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let etag = try #require(
            await PromiseExpectations.value(of: client.get("tasks", as: [Task].self, ifChangedSince: nil))
                .flatMap {
                    if case .changed(_, let validators) = $0 { return validators?.etag } else { return nil }
                })
        let fallback = NetworkFallback(cache: CopyLost(etag: etag))

        // When
        let fetched = await PromiseExpectations.value(
            of: fallback.fetch(policy: .networkFirst) {
                client.get("tasks", as: [Task].self, ifChangedSince: $0)
            })

        // Then
        #expect(fetched?.value.map(\.title) == ["Milk"])
        #expect(api.listings.notModified == 1 && api.listings.full == 2)
    }
}
