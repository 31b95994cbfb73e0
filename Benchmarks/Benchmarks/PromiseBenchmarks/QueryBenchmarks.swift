import Benchmark
import CSQLiteBenchmark
import Foundation
import OfflineKit
import Promises
import Services

/// Queries over the copy (`OfflineCollection.query`, issue #81): 100,000 ten-field rows under 1,000
/// parents, a page of 50 of one parent's children by date and their count, each beside the same
/// query by sqlite3 on a plain table with the same index, in the same sitting; and a watched
/// query's delivery after a write inside it.
func queryBenchmarks() {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .microseconds, warmupIterations: 1, maxDuration: .seconds(10),
        maxIterations: 5)
    let seeded = QueryFixture.shared

    Benchmark(
        "18 100k rows, 1,000 parents / a page of 50 children by date, x100, query", configuration: timing
    ) {
        benchmark in
        let fixture = try seeded.get()
        benchmark.startMeasurement()
        for parent in 0..<100 {
            let result = try await fixture.collection.query(fixture.page(of: parent * 10)).value
            precondition(result.values.count == 50)
        }
        benchmark.stopMeasurement()
    }

    Benchmark(
        "18 100k rows, 1,000 parents / a page of 50 children by date, x100, sqlite3", configuration: timing
    ) {
        benchmark in
        let fixture = try seeded.get()
        benchmark.startMeasurement()
        for parent in 0..<100 {
            precondition(fixture.plain.page(of: "p\(parent * 10)").count == 50)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("18 100k rows, 1,000 parents / count one parent's children, x100, query", configuration: timing)
    {
        benchmark in
        let fixture = try seeded.get()
        benchmark.startMeasurement()
        for parent in 0..<100 {
            let count = try await fixture.collection.count(
                where: .equals("projectId", .text("p\(parent * 10)"))
            )
            .value
            precondition(count == 100)
        }
        benchmark.stopMeasurement()
    }

    Benchmark(
        "18 100k rows, 1,000 parents / count one parent's children, x100, sqlite3", configuration: timing
    ) {
        benchmark in
        let fixture = try seeded.get()
        benchmark.startMeasurement()
        for parent in 0..<100 {
            precondition(fixture.plain.count(of: "p\(parent * 10)") == 100)
        }
        benchmark.stopMeasurement()
    }

    Benchmark(
        "18 100k rows, 1,000 parents / a watched page delivers a write inside it", configuration: timing
    ) {
        benchmark in
        let fixture = try seeded.get()
        let delivered = AsyncStream<Int>.makeStream()
        let observation = fixture.collection.observe(fixture.page(of: 7), on: .inline) { result in
            if case .success(let found) = result { delivered.continuation.yield(found.values.count) }
        }
        var deliveries = delivered.stream.makeAsyncIterator()
        _ = await deliveries.next()
        // Earlier than every row of the parent: the first of its page, so the result changes.
        var row = QueryRow(
            parent: 7, number: 0, date: Date(timeIntervalSince1970: Double(benchmark.currentIteration)))
        row.id = nil
        benchmark.startMeasurement()
        _ = try await fixture.collection.create(row).value
        _ = await deliveries.next()
        benchmark.stopMeasurement()
        observation.cancel()
    }
}

/// A ten-field resource under a parent.
struct QueryRow: OfflineResource, Equatable {
    var id: String?
    var version: String?
    var projectId: String
    var date: Date
    var title: String
    var note: String
    var points: Int
    var done: Bool
    var owner: String
    var rank: Double

    init(parent: Int, number: Int, date: Date) {
        id = "row-\(parent)-\(number)-\(UUID().uuidString.prefix(8))"
        projectId = "p\(parent)"
        self.date = date
        title = "Row \(number) of \(parent)"
        note = "a note of some forty characters, give or take"
        points = number % 13
        done = number % 3 == 0
        owner = "owner\(number % 50)"
        rank = Double(number) / 7
    }
}

/// The file of 100,000 rows, made once for every benchmark of the group, with the collection
/// and the plain table beside it.
final class QueryFixture: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `made` is only read or written while holding `lock`.
    static let shared = QueryFixture()
    private let lock = NSLock()
    private var made: Result<Seeded, any Error>?

    struct Seeded: Sendable {
        let collection: OfflineCollection<QueryRow>
        let plain: PlainRows

        /// The first 50 children of parent `parent`, by date.
        func page(of parent: Int) -> OfflineQuery {
            OfflineQuery(
                where: .equals("projectId", .text("p\(parent)")), sortedBy: [.ascending("date")], limit: 50)
        }
    }

    func get() throws -> Seeded {
        lock.lock()
        defer { lock.unlock() }
        let result = made ?? Result { try Self.seed() }
        made = result
        return try result.get()
    }

    private static func seed() throws -> Seeded {
        let folder = temporaryFolder()
        let database = try Database(at: folder.appendingPathComponent("rows.sqlite"))
        let collection = OfflineCollection<QueryRow>(
            database: database, collection: "rows", client: APIClient(baseURL: folder),
            reachability: Offline()
        )
        .indexed(by: "projectId", "date")
        let ready = DispatchSemaphore(value: 0)
        collection.count().done(on: .inline) { _ in ready.signal() }.catch(on: .inline) { _ in ready.signal()
        }
        ready.wait()
        let start = Date(timeIntervalSince1970: 1_796_083_200)
        var rows: [QueryRow] = []
        for parent in 0..<1_000 {
            for number in 0..<100 {
                rows.append(
                    QueryRow(
                        parent: parent, number: number,
                        date: start.addingTimeInterval(Double(number * 997 % 100) * 60)))
            }
        }
        let encoded = try rows.map { ($0, try APIClient.encode($0)) }
        let written = DispatchSemaphore(value: 0)
        database.write { connection in
            for (position, (row, json)) in encoded.enumerated() {
                try connection.execute(
                    "INSERT INTO offline_resources (collection, id, json, origin, position) VALUES ('rows', ?, ?, 'api', ?)",
                    [.text(row.id ?? ""), .blob(json), .integer(Int64(position))])
            }
        }
        .ensure(on: .inline) { written.signal() }.cauterize()
        written.wait()
        return Seeded(
            collection: collection,
            plain: try PlainRows(rows, in: folder.appendingPathComponent("plain.sqlite")))
    }

    private struct Offline: ConnectivityMonitor {
        var isReachable: Bool { false }
    }
}

/// The same rows in a plain table with the same index, read by sqlite3 into the same struct.
final class PlainRows: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the benchmarks of one group run one after the other, and
    // each uses the handle from one task at a time.
    private var handle: OpaquePointer?

    init(_ rows: [QueryRow], in file: URL) throws {
        sqlite3_open_v2(
            file.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        sqlite3_exec(
            handle,
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE plain (id TEXT PRIMARY KEY, version TEXT, project_id TEXT, date REAL, title TEXT,
                note TEXT, points INTEGER, done INTEGER, owner TEXT, rank REAL);
            CREATE INDEX plain_by_project_then_date ON plain (project_id, date, id);
            BEGIN;
            """, nil, nil, nil)
        var insert: OpaquePointer?
        sqlite3_prepare_v2(
            handle, "INSERT INTO plain VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &insert, nil)
        for row in rows {
            sqlite3_reset(insert)
            sqlite3_bind_text(insert, 1, row.id ?? "", -1, transientDestructor)
            sqlite3_bind_text(insert, 2, row.projectId, -1, transientDestructor)
            sqlite3_bind_double(insert, 3, row.date.timeIntervalSince1970)
            sqlite3_bind_text(insert, 4, row.title, -1, transientDestructor)
            sqlite3_bind_text(insert, 5, row.note, -1, transientDestructor)
            sqlite3_bind_int64(insert, 6, Int64(row.points))
            sqlite3_bind_int64(insert, 7, row.done ? 1 : 0)
            sqlite3_bind_text(insert, 8, row.owner, -1, transientDestructor)
            sqlite3_bind_double(insert, 9, row.rank)
            precondition(sqlite3_step(insert) == SQLITE_DONE)
        }
        sqlite3_finalize(insert)
        sqlite3_exec(handle, "COMMIT", nil, nil, nil)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The first 50 children of `parent` by date, each read into a `QueryRow`.
    func page(of parent: String) -> [QueryRow] {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(
            handle,
            "SELECT id, project_id, date, title, note, points, done, owner, rank FROM plain WHERE project_id = ? ORDER BY date, id LIMIT 50",
            -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, parent, -1, transientDestructor)
        var rows: [QueryRow] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            func text(_ column: Int32) -> String { String(cString: sqlite3_column_text(statement, column)) }
            var row = QueryRow(
                parent: 0, number: 0, date: Date(timeIntervalSince1970: sqlite3_column_double(statement, 2)))
            row.id = text(0)
            row.projectId = text(1)
            row.title = text(3)
            row.note = text(4)
            row.points = Int(sqlite3_column_int64(statement, 5))
            row.done = sqlite3_column_int64(statement, 6) != 0
            row.owner = text(7)
            row.rank = sqlite3_column_double(statement, 8)
            rows.append(row)
        }
        return rows
    }

    /// How many children `parent` has.
    func count(of parent: String) -> Int {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(handle, "SELECT count(*) FROM plain WHERE project_id = ?", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, parent, -1, transientDestructor)
        guard sqlite3_step(statement) == SQLITE_ROW else { return 0 }
        return Int(sqlite3_column_int64(statement, 0))
    }
}
