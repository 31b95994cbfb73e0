import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// `OfflineCollection.page`: keyset pages in a declared order, read through an index, agreeing
/// with the in-memory pages any storage gets by default.
@Suite("OfflineCollection pages")
struct OfflineCollectionPagesTests {
    typealias Task = OfflineCollectionTests.Task
    let folder = TemporaryFolder("OfflineCollectionPagesTests")

    /// The JSON storage with its own pages and queries left out: the defaults, answered in memory.
    struct SortedInMemory<Resource: OfflineResource>: OfflineStorage {
        let base: JSONOfflineStorage<Resource>
        var tables: FeatureDatabase { base.tables }
        var outbox: Outbox { base.outbox }
        var copyStamp: String { base.copyStamp }
        func resources(in connection: Connection) throws -> [Resource] { try base.resources(in: connection) }
        func resource(id: String, in connection: Connection) throws -> (value: Resource, deleted: Bool)? {
            try base.resource(id: id, in: connection)
        }
        func put(_ resource: Resource, from origin: OfflineOrigin, in connection: Connection) throws {
            try base.put(resource, from: origin, in: connection)
        }
        func markDeleted(id: String, in connection: Connection) throws {
            try base.markDeleted(id: id, in: connection)
        }
        func remove(id: String, from origin: OfflineOrigin?, in connection: Connection) throws {
            try base.remove(id: id, from: origin, in: connection)
        }
        func replaceAPICopy(with fresh: [Resource], in connection: Connection) throws {
            try base.replaceAPICopy(with: fresh, in: connection)
        }
    }

    /// Collection `name` of the file at `file`, offline, twice: with the JSON storage's own pages,
    /// and with the defaults sorted in memory.
    static func indexedAndInMemory<Resource: OfflineResource>(_ file: URL, _ name: String) throws -> (
        indexed: OfflineCollection<Resource>, inMemory: OfflineCollection<Resource>
    ) {
        let database = try Database(at: file)
        let client = APIClient(baseURL: try ClosedPort().baseURL, retry: .never)
        let indexed = OfflineCollection<Resource>(
            database: database, collection: name, client: client,
            reachability: OfflineCollectionTests.Offline())
        let inMemory = OfflineCollection<Resource>(
            storage: SortedInMemory<Resource>(
                base: JSONOfflineStorage(database: database, collection: name, now: { Date() })),
            client: client, reachability: OfflineCollectionTests.Offline())
        return (indexed, inMemory)
    }

    /// Given: 40 tasks created offline, one in four without a note, notes repeating.
    func collections() async throws -> (indexed: OfflineCollection<Task>, inMemory: OfflineCollection<Task>) {
        let (indexed, inMemory): (OfflineCollection<Task>, OfflineCollection<Task>) =
            try Self.indexedAndInMemory(
                folder.file("tasks.sqlite"), "tasks")
        for number in 0..<40 {
            let note = number % 4 == 0 ? nil : "note \(number % 7)"
            _ = await PromiseExpectations.value(of: indexed.create(Task(title: "task \(number)", note: note)))
        }
        return (indexed, inMemory)
    }

    /// Every page of `collection` in `order`, `limit` at a time; at most 50 pages, so that pages
    /// that never end fail the test instead of hanging it.
    static func allPages<Resource: OfflineResource>(
        _ collection: OfflineCollection<Resource>, _ order: OfflineOrder, limit: Int
    ) async -> [[Resource]] {
        var pages: [[Resource]] = []
        var page = await PromiseExpectations.value(of: collection.page(limit: limit, order: order))
        while let current = page, pages.count < 50 {
            pages.append(current.values)
            guard let next = current.next else { break }
            page = await PromiseExpectations.value(of: collection.page(after: next, limit: limit))
        }
        return pages
    }

    @Test(
        "pages hold every resource once, in the order's field then by identifier, missing values first ascending",
        arguments: [OfflineOrder.ascending("note"), .descending("note"), .ascending("title")])
    func pagesCoverEveryResourceInOrder(order: OfflineOrder) async throws {
        // Given
        let (indexed, inMemory) = try await collections()
        let all = try #require(await PromiseExpectations.value(of: indexed.snapshot())).values
        let field: (Task) -> String? = order.field == "note" ? \.note : \.title
        let expected = all.sorted { lhs, rhs in
            let (first, second) = order.descending ? (rhs, lhs) : (lhs, rhs)
            if field(first) != field(second) {
                guard let left = field(first) else { return true }
                guard let right = field(second) else { return false }
                return Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
            }
            return Array((first.id ?? "").utf8).lexicographicallyPrecedes(Array((second.id ?? "").utf8))
        }

        // When
        let pages = await Self.allPages(indexed, order, limit: 7)
        let sortedInMemory = await Self.allPages(inMemory, order, limit: 7)
        let evenPages = await Self.allPages(indexed, order, limit: 8)

        // Then
        #expect(pages.map(\.count) == [7, 7, 7, 7, 7, 5])
        #expect(pages.flatMap { $0 } == expected)
        #expect(sortedInMemory == pages)
        #expect(evenPages.map(\.count) == [8, 8, 8, 8, 8], "a full last page says there is no next")
    }

    @Test("a resource saved or deleted between two pages neither repeats one nor skips one")
    func pagesAreStableWhileRowsChange() async throws {
        // Given: the first page read
        let (indexed, _) = try await collections()
        let first = try #require(
            await PromiseExpectations.value(of: indexed.page(limit: 10, order: .ascending("title"))))
        let next = try #require(first.next)
        let rest = await Self.allPages(indexed, .ascending("title"), limit: 40).flatMap { $0 }.dropFirst(10)

        // When: one saved before the cursor, one of the next page deleted (never sent: nothing waits for it)
        _ = await PromiseExpectations.value(of: indexed.create(Task(title: "a task")))
        _ = await PromiseExpectations.value(of: indexed.delete(id: rest.first?.id ?? ""))
        let second = await PromiseExpectations.value(of: indexed.page(after: next, limit: 10))

        // Then
        #expect(second?.values == Array(rest.dropFirst().prefix(10)))
        #expect(second?.items.allSatisfy { $0.state == .pending } == true && second?.status.waiting == 40)
    }

    @Test("a page after the first seeks in the order's index: no scan from the start, no sort")
    func pagesSeekInTheIndex() async throws {
        // Given: the index made by a first page
        let (indexed, _) = try await collections()
        _ = await PromiseExpectations.value(of: indexed.page(limit: 5, order: .descending("note")))
        let database = try Database(at: folder.file("tasks.sqlite"))
        let cursor = OfflinePageCursor(order: .descending("note"), key: .text("note 3"), id: "x")

        // When
        let (sql, arguments) = try #require(
            JSONOfflineStorage<Task>.query(.descending("note"), nulls: false, after: cursor, limit: 5))
        let plan = await PromiseExpectations.value(
            of: database.read { connection in
                try connection.query("EXPLAIN QUERY PLAN " + sql, [.text("tasks")] + arguments) {
                    try $0.string("detail")
                }
            })

        // Then
        #expect(
            plan == [
                "SEARCH offline_resources USING INDEX offline_resources_ordered_by_note (collection=? AND <expr><?)"
            ])
    }

    @Test("an order whose field is not a plain name is refused, naming it")
    func invalidFieldIsRefused() async throws {
        // Given
        let (indexed, _) = try await collections()

        // When
        let error = await PromiseExpectations.error(
            of: indexed.page(limit: 5, order: .ascending("note'); DROP")))

        // Then
        guard case .storageFailed(let reason)? = error as? ServiceRequestError else {
            Issue.record("not refused as expected: \(String(describing: error))")
            return
        }
        #expect(reason.contains("note'); DROP"))
    }

    @Test(
        "an order by a field no resource has (a misspelt name) is refused, naming it; an optional field never set is not"
    )
    func unknownFieldIsRefused() async throws {
        // Given: tasks with a title and some with a note
        let (indexed, _) = try await collections()

        // When
        let misspelt = await PromiseExpectations.error(of: indexed.page(limit: 5, order: .ascending("titel")))
        let declared = await PromiseExpectations.value(
            of: indexed.page(limit: 5, order: .ascending("version")))

        // Then: the misspelt field is named; a declared field nobody set orders by identifier
        guard case .storageFailed(let reason)? = misspelt as? ServiceRequestError else {
            Issue.record("not refused as expected: \(String(describing: misspelt))")
            return
        }
        #expect(reason.contains("titel"))
        #expect(declared?.values.count == 5)
    }
}
