import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// The table every collection made with a name shares: the lookups each snapshot and page makes
/// read an index, not the whole collection.
@Suite("JSONOfflineStorage")
struct JSONOfflineStorageTests {
    @Test("a collection's resources changed here are found through their partial index")
    func changedHereUsesItsIndex() async throws {
        // Given
        let database = try Database.inMemory(
            migrations: JSONOfflineStorage<OfflineCollectionTests.Task>.migrations)

        // When
        let plan = await PromiseExpectations.value(
            of: database.read {
                try $0.query(
                    "EXPLAIN QUERY PLAN " + JSONOfflineStorage<OfflineCollectionTests.Task>.changedHere,
                    [.text("tasks")])
            })

        // Then
        let details = plan?.compactMap { row in try? row.string("detail") } ?? []
        #expect(details.contains { $0.contains("offline_changed_here") }, "\(details)")
    }

    typealias Task = OfflineCollectionTests.Task

    /// Saves `listing` as the API's rows; gives the collection as then shown and how many rows
    /// that wrote (SQLite's count of changes on the connection).
    static func save(
        _ listing: [Task], in storage: JSONOfflineStorage<Task>, _ database: Database
    ) async -> (shown: [Task], rowsWritten: Int64)? {
        await PromiseExpectations.value(
            of: database.write { connection in
                let before = try connection.scalar("SELECT total_changes()")
                try storage.replaceAPICopy(with: listing, in: connection)
                let after = try connection.scalar("SELECT total_changes()")
                guard case .integer(let first)? = before, case .integer(let last)? = after else {
                    return ([], -1)
                }
                return (try storage.resources(in: connection), last - first)
            })
    }

    /// A database of one collection, its tables made as the collection makes them.
    static func opened() async throws -> (Database, JSONOfflineStorage<Task>) {
        let database = try Database.inMemory()
        let storage = JSONOfflineStorage<Task>(database: database, collection: "tasks", now: { Date() })
        _ = await PromiseExpectations.value(of: storage.tables.opened)
        return (database, storage)
    }

    @Test("a listing writes only the rows it changes: none when unchanged, and keeps a row changed here")
    func listingWritesOnlyWhatDiffers() async throws {
        // Given: two resources listed, and a third changed here
        let (database, storage) = try await Self.opened()
        let milk = Task(id: "a", title: "Milk")
        let eggs = Task(id: "b", title: "Eggs")
        let mine = Task(id: "c", title: "Bread, mine")
        _ = await Self.save([milk, eggs], in: storage, database)
        _ = await PromiseExpectations.value(
            of: database.write { try storage.put(mine, from: .device, in: $0) })

        // When: listed again as it is
        let unchanged = await Self.save([milk, eggs], in: storage, database)

        // Then: nothing written
        #expect(unchanged?.rowsWritten == 0)
        #expect(unchanged?.shown == [milk, eggs, mine])

        // When: one edited in its place, one edited and moved, the one changed here listed first
        // as the API has it
        let oatMilk = Task(id: "a", title: "Oat milk")
        let brownEggs = Task(id: "b", title: "Brown eggs")
        let changed = await Self.save(
            [Task(id: "c", title: "Bread, theirs"), brownEggs, oatMilk], in: storage, database)

        // Then: each row that moved or changed written once; the change made here kept
        #expect(changed?.rowsWritten == 3)
        #expect(changed?.shown == [mine, brownEggs, oatMilk])

        // When: one no longer listed
        let removed = await Self.save([mine, oatMilk], in: storage, database)

        // Then: it is gone, and the others take their places
        #expect(removed?.rowsWritten == 2)
        #expect(removed?.shown == [mine, oatMilk])

        // When: listed again as it is, with the one changed here in it
        let again = await Self.save([mine, oatMilk], in: storage, database)

        // Then
        #expect(again?.rowsWritten == 0)
        #expect(again?.shown == [mine, oatMilk])
    }

    @Test("a resource listed twice is kept once: the first listed, at the later place")
    func listedTwiceKeepsTheFirstAtTheLaterPlace() async throws {
        // Given
        let (database, storage) = try await Self.opened()

        // When: a listing that names one resource twice, with other values the second time
        let listed = await Self.save(
            [Task(id: "a", title: "Milk"), Task(id: "b", title: "Eggs"), Task(id: "a", title: "Oat milk")],
            in: storage, database)

        // Then
        #expect(listed?.shown == [Task(id: "b", title: "Eggs"), Task(id: "a", title: "Milk")])
    }

    @Test("a query with a limit reads no more rows than its limit")
    func queryReadsUpToItsLimit() async throws {
        // Given: five tasks
        let (database, storage) = try await Self.opened()
        _ = await Self.save(["a", "b", "c", "d", "e"].map { Task(id: $0, title: $0) }, in: storage, database)

        // When
        let rows = await PromiseExpectations.value(
            of: database.read {
                try storage.query(OfflineQuery(sortedBy: [.ascending("title")], limit: 2), after: nil, in: $0)
            })

        // Then
        #expect(rows?.map { $0.value.id } == ["a", "b"])
    }

    @Test("a page that spans the rows without the field and those with it holds no more than its limit")
    func pageAcrossBothRunsKeepsItsLimit() async throws {
        // Given: two tasks without a note (the first run, ascending) and three with one
        let (database, storage) = try await Self.opened()
        let listing =
            ["a", "b"].map { Task(id: $0, title: $0) }
            + ["c", "d", "e"].map { Task(id: $0, title: $0, note: "note " + $0) }
        _ = await Self.save(listing, in: storage, database)

        // When
        let page = await PromiseExpectations.value(
            of: database.read { try storage.page(.ascending("note"), after: nil, limit: 3, in: $0) })

        // Then: both without, then the first with
        #expect(page?.map { $0.value.id } == ["a", "b", "c"])
    }
    @Test("a page index, or a query's on one field, drops the one an earlier version made for that field")
    func earlierPageIndexIsDropped() async throws {
        // Given: the indexes of an earlier version, on the fields as they are
        let (database, storage) = try await Self.opened()
        _ = await PromiseExpectations.value(
            of: database.write { connection in
                for field in ["note", "title"] {
                    // sql-constant: the test's own field names.
                    try connection.execute(
                        "CREATE INDEX offline_resources_by_\(field) ON offline_resources (collection, json_extract(json, '$.\(field)'), id)"
                    )
                }
            })

        // When: a page's index made, and a query's on one field
        _ = await PromiseExpectations.value(
            of: database.write { connection in
                try storage.preparePages(.ascending("note"), in: connection)
                try storage.prepareQueries(on: ["title"], in: connection)
            })

        // Then: only this version's are left
        let indexes = await PromiseExpectations.value(
            of: database.read { connection in
                try connection.query(
                    """
                    SELECT name FROM sqlite_master WHERE type = 'index'
                    AND (name GLOB '*by_note' OR name GLOB '*by_title') ORDER BY name
                    """
                ) { try $0.string("name") }
            })
        #expect(indexes == ["offline_resources_ordered_by_note", "offline_resources_ordered_by_title"])
    }
}
