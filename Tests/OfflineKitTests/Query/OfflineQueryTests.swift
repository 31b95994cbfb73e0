import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// `OfflineCollection.query`: filters, orders, pages and counts over the copy, in SQL through the
/// JSON storage and in memory through any other, agreeing value for value.
@Suite("OfflineCollection queries")
struct OfflineQueryTests {
    /// A ticket of a project: text, numbers, a boolean, a date, fields that may be missing.
    struct Ticket: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
        var projectId: String?
        var points: Int
        var done: Bool
        var due: Date?
    }

    let folder = TemporaryFolder("OfflineQueryTests")

    /// The first of December 2026, plus `days`.
    static func day(_ days: Int) -> Date {
        Date(timeIntervalSince1970: 1_796_083_200 + Double(days) * 86_400)
    }

    /// Twelve tickets made offline, `t0` … `t11`: projects p1, p2 and none in turn, points 0 … 11
    /// (so 9 and 10 tell numbers from text), every third done, a due date on the even ones (two of
    /// them a fraction of a second apart, which text order would swap). The collection in SQL
    /// (with its indexes declared) and the same file answered in memory.
    func tickets() async throws -> (sql: OfflineCollection<Ticket>, memory: OfflineCollection<Ticket>) {
        let database = try Database(at: folder.file("tickets.sqlite"))
        let client = APIClient(baseURL: URL(fileURLWithPath: "/"), retry: .never)
        let sql = OfflineCollection<Ticket>(
            database: database, collection: "tickets", client: client,
            reachability: OfflineCollectionTests.Offline(),
            makeID: Self.ids()
        )
        .indexed(by: "projectId", "due")
        .indexed(by: "points")
        for number in 0..<12 {
            let due: Date? =
                number == 2
                ? Self.day(2).addingTimeInterval(0.5) : number % 2 == 0 ? Self.day(number) : nil
            _ = await PromiseExpectations.value(
                of: sql.create(
                    Ticket(
                        title: "t\(number)", projectId: ["p1", "p2", nil][number % 3], points: number,
                        done: number % 3 == 0, due: due)))
        }
        let memory = OfflineCollection<Ticket>(
            storage: OfflineCollectionPagesTests.SortedInMemory<Ticket>(
                base: JSONOfflineStorage(database: database, collection: "tickets", now: { Date() })),
            client: client, reachability: OfflineCollectionTests.Offline())
        return (sql, memory)
    }

    /// Identifiers `local-00`, `local-01`, … in the order the tickets are made.
    static func ids() -> @Sendable () -> String {
        let next = Locked(0)
        return {
            next.withLock { number in
                defer { number += 1 }
                return String(format: "local-%02d", number)
            }
        }
    }

    /// An offline collection of `Resource` alone in a file of its own, in `database` when given.
    func collection<Resource: OfflineResource>(
        _ name: String, of type: Resource.Type, in database: Database? = nil
    ) throws -> OfflineCollection<Resource> {
        OfflineCollection<Resource>(
            database: try database ?? Database(at: folder.file("\(name).sqlite")), collection: name,
            client: APIClient(baseURL: URL(fileURLWithPath: "/")),
            reachability: OfflineCollectionTests.Offline())
    }

    /// The titles `query` finds in `collection`.
    func titles(_ collection: OfflineCollection<Ticket>, _ query: OfflineQuery) async -> [String]? {
        await PromiseExpectations.value(of: collection.query(query))?.values.map(\.title)
    }

    @Test(
        "each filter keeps what it says, in SQL and in memory alike",
        arguments: [
            (OfflineFilter.equals("projectId", "p1"), ["t0", "t3", "t6", "t9"]),
            (.isIn("projectId", ["p2", "p9"]), ["t1", "t4", "t7", "t10"]),
            (.isNull("projectId"), ["t2", "t5", "t8", "t11"]),
            (.lessThan("points", 3), ["t0", "t1", "t2"]),
            (.atMost("points", 3), ["t0", "t1", "t2", "t3"]),
            (.greaterThan("points", 9), ["t10", "t11"]),
            (.atLeast("points", 9), ["t9", "t10", "t11"]),
            (.hasPrefix("title", "t1"), ["t1", "t10", "t11"]),
            (.equals("done", true), ["t0", "t3", "t6", "t9"]),
            (.equals("projectId", "p1") && .equals("done", false), []),
            (.equals("projectId", "p2") && .greaterThan("points", 4), ["t7", "t10"]),
            (.equals("projectId", "p1") || .lessThan("points", 2), ["t0", "t1", "t3", "t6", "t9"]),
            (.lessThan("due", .date(day(4))), ["t0", "t2"]),
            (.lessThan("points", "a"), []),
            (.greaterThan("title", 5), []),
            (.lessThan("points", 2.5), ["t0", "t1", "t2"]),
            (.equals("points", 3.0), ["t3"]),
            (.all([]), (0..<12).map { "t\($0)" }),
            (.any([]), []),
            (.isIn("projectId", []), []),
            (.atMost("points", "a"), []),
            (.atLeast("title", 5), []),
            (.hasPrefix("points", "1"), []),
            (
                .isNull("projectId") || .equals("done", true),
                ["t0", "t2", "t3", "t5", "t6", "t8", "t9", "t11"]
            ),
        ])
    func filtersKeepWhatTheySay(filter: OfflineFilter, expected: [String]) async throws {
        // Given
        let (sql, memory) = try await tickets()

        // When
        let inSQL = await titles(sql, OfflineQuery(where: filter))
        let inMemory = await titles(memory, OfflineQuery(where: filter))
        let counted = await PromiseExpectations.value(of: sql.count(where: filter))

        // Then: in the list's order, the order they were made
        #expect(inSQL == expected)
        #expect(inMemory == expected)
        #expect(counted == expected.count)
    }

    @Test("numbers sort as numbers, dates in time order, missing values first ascending and last descending")
    func typesSortAsTypes() async throws {
        // Given
        let (sql, memory) = try await tickets()
        let byPoints = OfflineQuery(where: .atLeast("points", 8), sortedBy: [.ascending("points")])
        let byDue = OfflineQuery(where: .lessThan("points", 5), sortedBy: [.descending("due")])

        for collection in [sql, memory] {
            // When
            let points = await titles(collection, byPoints)
            let due = await titles(collection, byDue)

            // Then: 9 before 10; t2's date (half a second after its day) after t0's, the undated last
            #expect(points == ["t8", "t9", "t10", "t11"])
            #expect(due == ["t4", "t2", "t0", "t3", "t1"])
        }
    }

    @Test(
        "two orders, each in its direction, then pages: every ticket once, in that order, in SQL and in memory"
    )
    func pagesInTwoOrders() async throws {
        // Given: by project (missing first), then points descending, four at a time
        let (sql, memory) = try await tickets()
        let query = OfflineQuery(sortedBy: [.ascending("projectId"), .descending("points")], limit: 4)
        let expected = ["t11", "t8", "t5", "t2", "t9", "t6", "t3", "t0", "t10", "t7", "t4", "t1"]

        for collection in [sql, memory] {
            // When
            var pages: [[String]] = []
            var result = await PromiseExpectations.value(of: collection.query(query))
            while let current = result, pages.count < 10 {
                pages.append(current.values.map(\.title))
                guard let next = current.next else { break }
                result = await PromiseExpectations.value(of: collection.query(after: next))
            }

            // Then
            #expect(pages.map(\.count) == [4, 4, 4])
            #expect(pages.flatMap { $0 } == expected)
        }
    }

    @Test("a query on a declared index reads through it: a search, not a scan")
    func declaredIndexIsUsed() async throws {
        // Given: the collection, its indexes declared
        let (sql, _) = try await tickets()
        _ = await PromiseExpectations.value(of: sql.count())
        let database = try Database(at: folder.file("tickets.sqlite"))

        // When
        let (select, arguments) = JSONOfflineStorage<Ticket>.select(
            OfflineQuery(where: .equals("projectId", "p1"), sortedBy: [.ascending("due")], limit: 50),
            after: nil)
        let (count, countArguments) = JSONOfflineStorage<Ticket>.counting(.equals("projectId", "p1"))
        let changedHere = JSONOfflineStorage<Ticket>.changedHere
        let plans = await PromiseExpectations.value(
            of: database.read { connection in
                try [(select, arguments), (count, countArguments), (changedHere, [])].map { sql, arguments in
                    try connection.query("EXPLAIN QUERY PLAN " + sql, [.text("tickets")] + arguments) {
                        try $0.string("detail")
                    }
                }
            })

        // Then: a seek in the index on the project then the date, in its order: no sort
        #expect(
            plans?.first
                == [
                    "SEARCH offline_resources USING INDEX offline_resources_ordered_by_projectId_then_due (collection=? AND <expr>=?)"
                ])
        // ...and what every read asks, the rows changed here, still reads its own small index
        // (the planner took the query's, and walked the whole collection)
        #expect(plans?.last == ["SEARCH offline_resources USING INDEX offline_changed_here (collection=?)"])
        #expect(
            plans?[1]
                == [
                    "SEARCH offline_resources USING INDEX offline_resources_ordered_by_projectId_then_due (collection=? AND <expr>=?)"
                ])
    }

    @Test("the status counts the changes waiting for the rows shown, not the collection's")
    func statusOfTheRowsShown() async throws {
        // Given: twelve tickets made offline, each a waiting create
        let (sql, _) = try await tickets()

        // When
        let result = await PromiseExpectations.value(
            of: sql.query(OfflineQuery(where: .equals("projectId", "p1"))))
        let snapshot = await PromiseExpectations.value(of: sql.snapshot())

        // Then
        #expect(result?.status.waiting == 4)
        #expect(result?.items.allSatisfy { $0.state == .pending } == true)
        #expect(snapshot?.status.waiting == 12)
    }

    @Test("a field no ticket has is an error; a name that cannot be a field is refused at once")
    func unknownFieldsAreErrors() async throws {
        // Given
        let (sql, memory) = try await tickets()

        for collection in [sql, memory] {
            // When
            let misspelt = await PromiseExpectations.error(
                of: collection.query(OfflineQuery(where: .equals("projectID", "p1"))))
            let sortedBy = await PromiseExpectations.error(
                of: collection.query(OfflineQuery(sortedBy: [.ascending("dueAt")])))
            let invalid = await PromiseExpectations.error(of: collection.count(where: .isNull("due date")))
            let optional = await PromiseExpectations.value(
                of: collection.query(OfflineQuery(where: .isNull("due"))))
            let misspeltNull = await PromiseExpectations.error(
                of: collection.query(OfflineQuery(where: .isNull("projectID"))))
            let misspeltEither = await PromiseExpectations.error(
                of: collection.query(OfflineQuery(where: .equals("done", true) || .equals("projectID", "p1")))
            )
            let countedMisspelt = await PromiseExpectations.error(
                of: collection.count(where: .equals("projectID", "p1")))
            let countedMisspeltNull = await PromiseExpectations.error(
                of: collection.count(where: .isNull("projectID")))
            let invalidQuery = await PromiseExpectations.error(
                of: collection.query(OfflineQuery(sortedBy: [.ascending("due date")])))
            let watched = DeliveryRecorder<String>()
            let observation = collection.observe(OfflineQuery(where: .isNull("due date")), on: .inline) {
                if case .failure(let error) = $0 { watched.record("\(error)") }
            }
            let invalidWatched = await watched.next()
            observation.cancel()

            // Then
            #expect("\(String(describing: misspelt))".contains("projectID"))
            #expect("\(String(describing: misspelt))".contains("cannot be asked of tickets"))
            #expect("\(String(describing: sortedBy))".contains("dueAt"))
            #expect("\(String(describing: invalid))".contains("letters, digits and _"))
            #expect(optional?.values.count == 6)
            // A misspelt field under isNull, or on one side of ||, is not shown by the tickets kept
            for error in [misspeltNull, misspeltEither, countedMisspelt, countedMisspeltNull] {
                #expect("\(String(describing: error))".contains("projectID"))
            }
            #expect("\(String(describing: invalidQuery))".contains("letters, digits and _"))
            #expect(invalidWatched?.contains("letters, digits and _") == true)
        }
    }

    @Test("a watched query is told when its result changed, never for a write that leaves it as it was")
    func watchedQuery() async throws {
        // Given: the tickets of p1 watched
        let (sql, _) = try await tickets()
        let results = DeliveryRecorder<OfflineQueryResult<Ticket>>()
        let observation = sql.observe(OfflineQuery(where: .equals("projectId", "p1")), on: .inline) {
            result in
            if case .success(let found) = result { results.record(found) }
        }
        let first = await results.next()

        // When: a ticket of p2 is made, then one of p1
        _ = await PromiseExpectations.value(
            of: sql.create(Ticket(title: "other", projectId: "p2", points: 1, done: false)))
        _ = await PromiseExpectations.value(
            of: sql.create(Ticket(title: "mine", projectId: "p1", points: 1, done: false)))
        let second = await results.next()
        observation.cancel()

        // Then: two deliveries, the second with the new ticket of p1
        #expect(first?.values.count == 4)
        #expect(second?.values.map(\.title).last == "mine")
        #expect(results.all.count == 2)
    }

    @Test(
        "the tasks of a project asked by its local id are the same two after the sync gave it the API's id")
    func filterFollowsTheParentsIdentifier() async throws {
        // Given: a project and two tasks made offline, and a task of another project
        let api = try OfflineReferenceTests.API()
        defer { api.server.stop() }
        let file = folder.file("app.sqlite")
        let references = OfflineReferenceTests()
        let offline = try references.device(file, api, online: false)
        let localID = try #require(await references.projectWithTwoTasks(offline))
        _ = await PromiseExpectations.value(of: offline.tasks.create(PlannedTask(title: "Elsewhere")))
        let before = await PromiseExpectations.value(
            of: offline.tasks.query(
                OfflineQuery(where: .equals("projectID", .text(localID)), sortedBy: [.ascending("title")])))

        // When: the sync gives the project the API's id
        let online = try references.device(file, api, online: true)
        _ = await PromiseExpectations.value(of: online.sync())
        let byLocalID = await PromiseExpectations.value(
            of: online.tasks.query(
                OfflineQuery(where: .equals("projectID", .text(localID)), sortedBy: [.ascending("title")])))
        let byAPIID = await PromiseExpectations.value(
            of: online.tasks.query(
                OfflineQuery(where: .isIn("projectID", ["projects-1"]), sortedBy: [.ascending("title")])))
        let counted = await PromiseExpectations.value(
            of: online.tasks.count(where: .equals("projectID", .text(localID))))

        // Then: the same two tasks each time, now naming the API's id
        #expect(before?.values.map(\.title) == ["Paint", "Sweep"])
        #expect(byLocalID?.values.map(\.title) == ["Paint", "Sweep"])
        #expect(byLocalID?.values.map(\.projectID) == ["projects-1", "projects-1"])
        #expect(byAPIID?.values.map(\.title) == ["Paint", "Sweep"])
        #expect(counted == 2)
    }

    /// A resource whose JSON spells a property otherwise than Swift does.
    struct Receipt: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var ownerID: String

        enum CodingKeys: String, CodingKey {
            case id, version
            case ownerID = "ownerId"
        }
    }

    @Test("a field named as Swift spells a property the JSON spells otherwise is an error, not an empty list")
    func swiftNameOfAJSONFieldIsAnError() async throws {
        // Given
        let receipts = try collection("receipts", of: Receipt.self)
        _ = await PromiseExpectations.value(of: receipts.create(Receipt(ownerID: "amy")))

        // When
        let bySwiftName = await PromiseExpectations.error(
            of: receipts.query(OfflineQuery(where: .equals("ownerID", "amy"))))
        let byJSONName = await PromiseExpectations.value(
            of: receipts.query(OfflineQuery(where: .equals("ownerId", "amy"))))

        // Then
        #expect("\(String(describing: bySwiftName))".contains("ownerID"))
        #expect(byJSONName?.values.map(\.ownerID) == ["amy"])
    }

    @Test("conditions joined by && or || again make one list of them, not a list inside a list")
    func joinedConditionsFlatten() {
        // Given
        let (a, b, c) = (OfflineFilter.isNull("a"), OfflineFilter.isNull("b"), OfflineFilter.isNull("c"))

        // When
        let every = a && b && c
        let some = a || (b || c)

        // Then: equal to the flat list (a filter a presenter test compares), and the other joint
        // nests
        #expect(every == .all([a, b, c]))
        #expect(some == .any([a, b, c]))
        #expect(((a && b) || c) == .any([.all([a, b]), c]))
    }

    /// A note whose optional date every note here leaves out of its JSON.
    struct Note: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
        var archivedAt: Date?
    }

    @Test("a field every resource leaves out (an optional holding nothing) is the model's: no error")
    func fieldNoResourceHoldsYet() async throws {
        // Given: notes, none archived
        let notes = try collection("notes", of: Note.self)
        _ = await PromiseExpectations.value(of: notes.create(Note(title: "Milk")))

        // When
        let archived = await PromiseExpectations.value(
            of: notes.query(OfflineQuery(where: .atLeast("archivedAt", .date(Self.day(0))))))
        let current = await PromiseExpectations.value(of: notes.count(where: .isNull("archivedAt")))
        let misspelt = await PromiseExpectations.error(of: notes.count(where: .isNull("archivedAT")))

        // Then
        #expect(archived?.values.isEmpty == true)
        #expect(current == 1)
        #expect("\(String(describing: misspelt))".contains("archivedAT"))
    }

    @Test("an index on a name that cannot be a field is not made, and the collection still answers")
    func indexOnAnInvalidNameNotMade() async throws {
        // Given: a name SQLite would take in an index's name and a JSON path
        let database = try Database(at: folder.file("indexes.sqlite"))
        let notes = try collection("notes", of: Note.self, in: database)
            .indexed(by: "title$", "id")

        // When
        _ = await PromiseExpectations.value(of: notes.create(Note(title: "Milk")))
        let indexes = await PromiseExpectations.value(
            of: database.read { connection in
                try connection.query("SELECT name FROM sqlite_master WHERE type = 'index'") {
                    try $0.string("name")
                }
            })

        // Then
        #expect(indexes?.contains { $0.contains("$") } == false)
        #expect(await PromiseExpectations.value(of: notes.count()) == 1)
    }
}
