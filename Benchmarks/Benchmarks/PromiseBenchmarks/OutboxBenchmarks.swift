import Benchmark
import CSQLiteBenchmark
import Foundation
import OfflineKit
import Orders
import PromiseMVPTestServer
import Promises
import Services

/// Offline writes: queueing orders created while the shop cannot be reached, and sending them
/// when it can, to the loopback shop (a real socket, the same HTTP client an app uses).
func outboxBenchmarks() {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(10),
        maxIterations: 5)
    let count = 1_000
    let order = sampleOrders(2)[1]

    // Creates that arrive together (a burst, an import) share commits (the database's group
    // commit); one awaited after the other, each pays its own durable commit.
    for together in [true, false] {
        let name = together ? "FallbackOrdersStore, together" : "FallbackOrdersStore, one at a time"
        Benchmark("6 outbox queue 1k offline creates / \(name)", configuration: timing) { benchmark in
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try offlineStore(in: folder)
            _ = try await store.syncStatus().value  // schema ready before measuring
            benchmark.startMeasurement()
            if together {
                let creates = (0..<count).map { _ in store.createOrder(order) }
                for create in creates { _ = try await create.value }
            } else {
                for _ in 0..<count { _ = try await store.createOrder(order).value }
            }
            benchmark.stopMeasurement()
            let waiting = try await store.syncStatus().value.waiting
            precondition(waiting == count)
        }
    }

    Benchmark("6 outbox sync 1k creates / loopback shop", configuration: timing) { benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let offline = try offlineStore(in: folder)
        for _ in 0..<count {
            _ = try await offline.createOrder(order).value
        }
        let shop = ordersShop()
        let server = try TestHTTPServer(keepsConnectionsOpen: true, responder: shop.respond)
        defer { server.stop() }
        let online = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: server.baseURL)),
            cache: OrdersSQLiteStore(
                database: try Database(at: folder.appendingPathComponent("orders.sqlite"))))
        benchmark.startMeasurement()
        let report = try await online.sync().value
        benchmark.stopMeasurement()
        precondition(report.sent.count == count && shop.applied.count == count)
    }

    // The floors: what SQLite alone takes to commit as many one-row transactions, durably (WAL,
    // `synchronous` left at FULL, as the store has it), and what the same client takes to POST as
    // many orders to the same shop, one after the other.
    Benchmark("6 outbox queue 1k offline creates / raw sqlite3 commits", configuration: timing) { benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let body = try APIClient.encode(order)
        let raw = RawCommits(file: folder.appendingPathComponent("raw.sqlite"))
        benchmark.startMeasurement()
        for _ in 0..<count { raw.insert(body) }
        benchmark.stopMeasurement()
        precondition(raw.count == count)
    }

    Benchmark("6 outbox sync 1k creates / bare POSTs", configuration: timing) { benchmark in
        let shop = ordersShop()
        let server = try TestHTTPServer(keepsConnectionsOpen: true, responder: shop.respond)
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL)
        benchmark.startMeasurement()
        for _ in 0..<count {
            _ = try await client.post("orders", body: order, as: Order.self).value
        }
        benchmark.stopMeasurement()
        precondition(shop.applied.count == count)
    }
}

/// One-row transactions in sqlite3 calls: the floor of queueing an offline write durably.
private final class RawCommits {
    private var handle: OpaquePointer?
    private var statement: OpaquePointer?

    init(file: URL) {
        let opened = sqlite3_open_v2(
            file.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        precondition(opened == SQLITE_OK, "cannot open \(file.path)")
        sqlite3_exec(handle, "PRAGMA journal_mode = WAL", nil, nil, nil)
        sqlite3_exec(handle, "CREATE TABLE entries (sequence INTEGER PRIMARY KEY, body BLOB)", nil, nil, nil)
        sqlite3_prepare_v2(handle, "INSERT INTO entries (body) VALUES (?)", -1, &statement, nil)
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close_v2(handle)
    }

    /// Commits one row holding `body`.
    func insert(_ body: Data) {
        sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
        _ = body.withUnsafeBytes { bytes in
            sqlite3_bind_blob(statement, 1, bytes.baseAddress, Int32(bytes.count), transientDestructor)
        }
        sqlite3_step(statement)
        sqlite3_reset(statement)
        sqlite3_exec(handle, "COMMIT", nil, nil, nil)
    }

    /// How many rows it holds.
    var count: Int {
        var select: OpaquePointer?
        sqlite3_prepare_v2(handle, "SELECT count(*) FROM entries", -1, &select, nil)
        defer { sqlite3_finalize(select) }
        return sqlite3_step(select) == SQLITE_ROW ? Int(sqlite3_column_int64(select, 0)) : 0
    }
}

/// The orders store with the shop out of reach, on a new file in `folder`.
private func offlineStore(in folder: URL) throws -> FallbackOrdersStore {
    FallbackOrdersStore(
        api: OrdersAPI(client: APIClient(baseURL: URL(fileURLWithPath: "/"))),
        cache: OrdersSQLiteStore(database: try Database(at: folder.appendingPathComponent("orders.sqlite"))),
        reachability: Offline())
}
