import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// `StorageBudget` over the table the named collections share, listed from the test API: what
/// goes first, what never goes, and how a row let go of comes back.
@Suite("Storage budget")
struct StorageBudgetTests {
    typealias Task = OfflineCollectionTests.Task

    /// Tasks put together: a resource that names others in an array.
    struct Bundle: OfflineResource {
        var id: String?
        var version: String?
        var taskIDs: [String]
    }

    /// A database with a `tasks` collection listed from a test API of ten tasks, a clock that
    /// dates the rows saved, and the way to go offline.
    struct Fixture {
        let folder = TemporaryFolder("StorageBudgetTests")
        let server: TestHTTPServer
        let api: TestResourceAPI
        let database: Database
        let clock = Locked(Date(timeIntervalSince1970: 1_000))
        let connectivity = ManualConnectivity(.reachable)
        var tasks: OfflineCollection<Task> { collection("tasks") }

        init() throws {
            api = TestResourceAPI(
                collection: "tasks",
                resources: (1...10).map { Task(id: "\($0)", title: "Task number \($0), with some words") })
            server = try TestHTTPServer(responder: api.respond)
            database = try Database(at: folder.file("budget.sqlite"))
        }

        /// The collection `name` of this database, through the test API while online.
        func collection(_ name: String) -> OfflineCollection<Task> {
            let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
            return OfflineCollection<Task>(
                database: database, collection: name, client: client,
                reachability: connectivity, now: { [clock] in clock.withLock { $0 } })
        }

        /// The identifiers of `collection`'s rows in the copy.
        func stored(_ collection: String = "tasks") async -> [String] {
            await PromiseExpectations.value(
                of: database.read { connection in
                    try connection.query(
                        "SELECT id FROM offline_resources WHERE collection = ? ORDER BY CAST(id AS INTEGER), id",
                        [.text(collection)]
                    ) { try $0.string("id") }
                }) ?? []
        }

        /// What the copy takes now.
        func used() async -> Int {
            await PromiseExpectations.value(of: StorageBudget(database: database, bytes: 0).usage())?.bytes
                ?? -1
        }
    }

    @Test("over the budget, the rows saved longest ago go first, of whatever collection")
    func oldestGoFirst() async throws {
        // Given: an archive listed first, the tasks ten minutes later
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let archive = try TestHTTPServer(
            responder: TestResourceAPI(
                collection: "archive", resources: (1...10).map { Task(id: "a\($0)", title: "Old one \($0)") }
            ).respond)
        defer { archive.stop() }
        let archived = OfflineCollection<Task>(
            database: fixture.database, collection: "archive",
            client: APIClient(baseURL: archive.baseURL, timeout: 30, retry: .never),
            now: { Date(timeIntervalSince1970: 400) })
        _ = await PromiseExpectations.value(of: archived.list())
        let archiveBytes = await fixture.used()
        _ = await PromiseExpectations.value(of: fixture.tasks.list())
        let tasksBytes = await fixture.used() - archiveBytes

        // When: a budget that holds the tasks alone
        let usage = await PromiseExpectations.value(
            of: StorageBudget(database: fixture.database, bytes: tasksBytes).enforce())

        // Then
        #expect(await fixture.stored("archive").isEmpty)
        #expect(await fixture.stored().count == 10)
        #expect(usage == StorageUsage(bytes: tasksBytes, keptBytes: 0, budget: tasksBytes, evicted: 10))
        #expect(usage?.overBudget == nil)
    }

    @Test("a row read on its own since it was saved goes after the rows saved with it")
    func readRowsStay() async throws {
        // Given: ten tasks listed at once, then the first read offline a minute later
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        _ = await PromiseExpectations.value(of: fixture.tasks.list())
        fixture.clock.withLock { $0 += 60 }
        fixture.connectivity.set(.unreachable)
        let read = await PromiseExpectations.value(of: fixture.tasks.fetch(id: "1"))

        // When: a budget one byte short of the copy
        let usage = await PromiseExpectations.value(
            of: StorageBudget(database: fixture.database, bytes: await fixture.used() - 1).enforce())

        // Then: of the ten saved together, one not read went: the first in the listing's order,
        // which is by identifier as text ("1", "10", "2", ...)
        #expect(read?.title == "Task number 1, with some words")
        #expect(usage?.evicted == 1)
        let stored = await fixture.stored()
        #expect(stored == (1...9).map(String.init), "\(stored)")
    }

    @Test(
        "nothing that waits goes: a row changed here, a deleted one, a pinned one, one a waiting change names (in a field or an array); the usage says why the budget is not met"
    )
    func whatWaitsStays() async throws {
        // Given: ten tasks listed, then offline: one edited, one deleted, one pinned, a subtask
        // created that names a fourth, and a bundle that names a fifth in an array
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        _ = await PromiseExpectations.value(of: fixture.tasks.list())
        fixture.connectivity.set(.unreachable)
        _ = await PromiseExpectations.value(
            of: fixture.tasks.update(Task(id: "1", version: "1", title: "Edited")))
        _ = await PromiseExpectations.value(of: fixture.tasks.delete(id: "2"))
        _ = await PromiseExpectations.value(of: fixture.tasks.pin(id: "3"))
        _ = await PromiseExpectations.value(
            of: fixture.collection("subtasks").create(Task(title: "Part of four", note: "4")))
        let bundles = OfflineCollection<Bundle>(
            database: fixture.database, collection: "bundles",
            client: APIClient(baseURL: fixture.server.baseURL, timeout: 30, retry: .never),
            reachability: fixture.connectivity)
        _ = await PromiseExpectations.value(of: bundles.create(Bundle(taskIDs: ["5"])))

        let measured = await PromiseExpectations.value(
            of: StorageBudget(database: fixture.database, bytes: 1_000_000).usage())
        let roomy = await PromiseExpectations.value(
            of: StorageBudget(database: fixture.database, bytes: 1_000_000).enforce())

        // When: a budget of nothing
        let usage = await PromiseExpectations.value(
            of: StorageBudget(database: fixture.database, bytes: 0).enforce())

        // Then: those five, the subtask and the bundle stay, the five others go, and the usage says why
        #expect(await fixture.stored() == ["1", "2", "3", "4", "5"])
        #expect(await fixture.stored("subtasks").count == 1)
        #expect(usage?.evicted == 5)
        #expect(usage?.keptBytes == usage?.bytes)
        // (within a roomy budget, the same is counted as kept, and nothing goes)
        #expect(measured.map { $0.keptBytes > 0 && $0.keptBytes < $0.bytes } == true)
        #expect(measured?.keptBytes == usage?.keptBytes && roomy?.keptBytes == usage?.keptBytes)
        #expect(roomy?.evicted == 0 && roomy?.bytes == measured?.bytes)
        #expect(
            usage?.overBudget?.hasSuffix("wait to be sent or are kept offline; the budget is 0 bytes") == true
        )
        #expect(await PromiseExpectations.value(of: fixture.tasks.pinnedIDs()) == ["3"])
    }

    @Test(
        "a row let go of: offline there is nothing to show; online it is fetched, and the next listing is whole"
    )
    func evictedRowComesBack() async throws {
        // Given: ten tasks listed (the API gives its ETag), then all let go of
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        _ = await PromiseExpectations.value(of: fixture.tasks.list())
        _ = await PromiseExpectations.value(of: StorageBudget(database: fixture.database, bytes: 0).enforce())

        // When: read offline, then online
        fixture.connectivity.set(.unreachable)
        let offline = await PromiseExpectations.error(of: fixture.tasks.fetch(id: "5"))
        fixture.connectivity.set(.reachable)
        let online = await PromiseExpectations.value(of: fixture.tasks.fetch(id: "5"))
        let listed = await PromiseExpectations.value(of: fixture.tasks.list())

        // Then: the listing was asked whole, not confirmed by a 304 of the copy's old ETag
        #expect(offline.map(ServiceRequestError.init) == .noData)
        #expect(online?.title == "Task number 5, with some words")
        #expect(listed?.value.values.count == 10)
        #expect(fixture.api.listings == (full: 2, notModified: 0))
        #expect(await fixture.stored().count == 10)
    }

    @Test("sizes read as a user reads them: bytes, then kB and MB with one decimal, never 1000.0 kB")
    func sizesInWords() {
        #expect(StorageUsage.text(1) == "1 byte" && StorageUsage.text(999) == "999 bytes")
        #expect(StorageUsage.text(1_000) == "1.0 kB" && StorageUsage.text(999_949) == "999.9 kB")
        #expect(StorageUsage.text(999_950) == "1.0 MB" && StorageUsage.text(18_000_000) == "18.0 MB")
    }

    @Test("unpinned, a row goes again like any other")
    func unpinnedRowGoes() async throws {
        // Given: a pinned task
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        _ = await PromiseExpectations.value(of: fixture.tasks.list())
        _ = await PromiseExpectations.value(of: fixture.tasks.pin(id: "7"))
        _ = await PromiseExpectations.value(of: StorageBudget(database: fixture.database, bytes: 0).enforce())
        #expect(await fixture.stored() == ["7"])

        // When
        _ = await PromiseExpectations.value(of: fixture.tasks.unpin(id: "7"))
        let usage = await PromiseExpectations.value(
            of: StorageBudget(database: fixture.database, bytes: 0).enforce())

        // Then
        #expect(await fixture.stored().isEmpty)
        #expect(usage == StorageUsage(bytes: 0, keptBytes: 0, budget: 0, evicted: 1))
    }

    @Test("enforcing reports a budget it cannot meet, once, and lets nothing that waits go")
    func enforcingReportsAnUnmetBudget() async throws {
        // Given: a budget of one byte, kept from now on
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.connectivity.set(.unreachable)
        let reports = DeliveryRecorder<StorageUsage>()
        let enforcing = StorageBudget(database: fixture.database, bytes: 1).enforcing { result in
            if case .success(let usage) = result { reports.record(usage) }
        }
        defer { enforcing.cancel() }

        // When: a task made offline
        _ = await PromiseExpectations.value(of: fixture.tasks.create(Task(title: "Kept whatever the budget")))
        let report = await reports.next()

        // Then
        #expect(report?.evicted == 0)
        #expect(
            report?.overBudget?.hasSuffix("the budget is 1 byte") == true, "\(String(describing: report))")
        #expect(await fixture.stored().count == 1)
    }

    @Test("enforcing keeps the copy within the budget after each listing, and reports what it let go of")
    func enforcingAfterEachChange() async throws {
        // Given: a budget of half the tasks (as another device measured them), kept from now on
        let measured = try Fixture()
        defer { measured.server.stop() }
        _ = await PromiseExpectations.value(of: measured.tasks.list())
        let half = await measured.used() / 2
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let reports = DeliveryRecorder<StorageUsage>()
        let enforcing = StorageBudget(database: fixture.database, bytes: half).enforcing { result in
            if case .success(let usage) = result { reports.record(usage) }
        }
        defer { enforcing.cancel() }

        // When: listed again
        _ = await PromiseExpectations.value(of: fixture.tasks.list())
        let report = await reports.next()

        // Then: the rows saved first went until half was left
        #expect(report?.evicted == 5)
        #expect(report.map { $0.bytes <= half } == true)
        #expect(await fixture.stored().count == 5)
    }
}
