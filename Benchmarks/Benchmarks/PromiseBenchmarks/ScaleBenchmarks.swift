import Benchmark
import Foundation
import OfflineKit
import Orders
import PromiseMVPTestServer
import Promises
import Services

/// The data path at scale: 100,000 orders listed from the offline copy, 16,000 from the loopback
/// shop, each beside the floor it cannot go under (the raw sqlite3 read; a bare GET of the same
/// answer on the same HTTP client).
func scaleBenchmarks() {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, warmupIterations: 1,
        maxDuration: .seconds(10), maxIterations: 5)
    // Each iteration writes its own file of 100,000 orders first, which takes a few seconds.
    let seeded = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, warmupIterations: 0,
        maxDuration: .seconds(20), maxIterations: 3)

    Benchmark("9 list 100k offline orders / FallbackOrdersStore + presenter, pages", configuration: seeded) {
        benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await hundredThousandOrders(in: folder)
        benchmark.startMeasurement()
        let shown = try await presentInPages(from: try offlineCopy(file))
        benchmark.stopMeasurement()
        precondition(shown == scaleCount)
    }

    // The store alone, paged, beside the raw reader, which formats nothing either.
    Benchmark("9 list 100k offline orders / FallbackOrdersStore, pages, no presenter", configuration: seeded)
    {
        benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await hundredThousandOrders(in: folder)
        let store = try offlineCopy(file)
        benchmark.startMeasurement()
        var read = 0
        var cursor: OrdersPage.Cursor?
        repeat {
            let page = try await store.fetchOrdersPage(after: cursor, limit: 1_000).value
            read += page.orders.count
            cursor = page.next
        } while cursor != nil
        benchmark.stopMeasurement()
        precondition(read == scaleCount)
    }

    Benchmark("9 list 100k offline orders / FallbackOrdersStore + presenter, whole", configuration: seeded) {
        benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await hundredThousandOrders(in: folder)
        benchmark.startMeasurement()
        let orders = try await offlineCopy(file).fetchOrders().value
        let shown = await present(orders)
        benchmark.stopMeasurement()
        precondition(shown == scaleCount)
    }

    Benchmark("9 list 100k offline orders / raw sqlite3", configuration: seeded) { benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await hundredThousandOrders(in: folder)
        benchmark.startMeasurement()
        let orders = try RawOrders(file: file).fetch()
        benchmark.stopMeasurement()
        precondition(orders.count == scaleCount)
    }

    Benchmark("10 16k orders from the loopback shop / listed, shown and saved", configuration: timing) {
        benchmark in
        let shop = try LoopbackShop()
        defer { shop.stop() }
        benchmark.startMeasurement()
        let orders = try await shop.store.fetchOrders().value
        let shown = await present(orders)
        benchmark.stopMeasurement()
        precondition(shown == apiCount)
    }

    Benchmark(
        "10 16k orders from the loopback shop / listed again, whole (no validators)", configuration: timing
    ) {
        benchmark in
        let shop = try LoopbackShop()
        defer { shop.stop() }
        _ = try await shop.store.fetchOrders().value  // the copy, as the shop has it
        // Without the listing's ETag the shop answers whole: the refresh before conditional GETs.
        try await shop.database.write { try $0.forgetCacheValidators("orders") }.value
        benchmark.startMeasurement()
        let orders = try await shop.store.fetchOrders().value
        let shown = await present(orders)
        benchmark.stopMeasurement()
        precondition(shown == apiCount)
    }

    Benchmark("10 16k orders from the loopback shop / listed again, unchanged (304)", configuration: timing) {
        benchmark in
        let shop = try LoopbackShop()
        defer { shop.stop() }
        _ = try await shop.store.fetchOrders().value  // the copy, as the shop has it
        benchmark.startMeasurement()
        let orders = try await shop.store.fetchOrders().value
        let shown = await present(orders)
        benchmark.stopMeasurement()
        precondition(shown == apiCount)
    }

    Benchmark("10 16k orders from the loopback shop / refreshed, unchanged (304)", configuration: timing) {
        benchmark in
        let shop = try LoopbackShop()
        defer { shop.stop() }
        _ = try await shop.store.fetchOrders().value  // the copy, as the shop has it
        benchmark.startMeasurement()
        try await shop.store.refresh().value
        benchmark.stopMeasurement()
    }

    Benchmark("10 16k orders from the loopback shop / bare GET", configuration: timing) { benchmark in
        let shop = try LoopbackShop()
        defer { shop.stop() }
        let client = APIClient(baseURL: shop.server.baseURL)
        benchmark.startMeasurement()
        let body = try await client.send(.get, "orders", body: nil).value
        benchmark.stopMeasurement()
        precondition(body.count > apiCount)
    }
}

private let scaleCount = 100_000
private let apiCount = 16_000

/// A file in `folder` holding 100,000 orders in the offline copy, shaped as `sampleOrders` makes
/// them. The store makes the tables and stamps the copy; SQLite writes the rows itself, so that
/// making them leaves nothing in this process's memory to count in the listing's peak.
private func hundredThousandOrders(in folder: URL) async throws -> URL {
    let file = folder.appendingPathComponent("orders.sqlite")
    let database = try Database(at: file)
    try await OrdersSQLiteStore(database: database).save([], at: Date()).value
    try await database.write { connection in
        _ = try connection.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
            INSERT INTO orders (id, date, email, first_name, last_name, phone,
                billing_street1, billing_street2, billing_city, billing_state, billing_zip,
                shipment_street1, shipment_street2, shipment_city, shipment_state, shipment_zip,
                card_last4, card_expiration, shipment_speed, total, origin)
            SELECT 'order-' || i, 1700000000 + i * 60, 'buyer' || i || '@example.com', 'First' || i,
                'Last' || i, '555-0100', i || ' Main Street', '', 'Springfield', 'IL', '62701',
                i || ' Main Street', '', 'Springfield', 'IL', '62701', '1111', 1900000000, 1, i, 'api'
            FROM n
            """, [SQLValue(scaleCount)])
        _ = try connection.execute(
            """
            INSERT INTO order_items (order_id, position, name, quantity, unit_price)
            SELECT id, 0, 'Thing ' || (n % 50), 1 + n % 3, n % 100
            FROM (SELECT id, CAST(substr(id, 7) AS INTEGER) AS n FROM orders)
            """)
    }.value
    return file
}

/// The orders store with the shop out of reach, in front of the copy in `file`.
private func offlineCopy(_ file: URL) throws -> FallbackOrdersStore {
    FallbackOrdersStore(
        api: OrdersAPI(client: APIClient(baseURL: URL(fileURLWithPath: "/"))),
        cache: OrdersSQLiteStore(database: try Database(at: file)), reachability: Offline())
}

/// The list screen shown a page of 1,000 at a time, as far as the last page, its rows kept as a
/// screen scrolled to the end keeps them, in room made for the count the first page gives;
/// returns how many rows it shows.
@MainActor
private func presentInPages(from store: FallbackOrdersStore) async throws -> Int {
    let presenter = ListOrdersPresenter(
        worker: OrdersWorker(ordersStore: store), formatter: benchmarkFormatter)
    var rows: [ListOrders.FetchOrders.ViewModel.DisplayedOrder] = []
    var cursor: OrdersPage.Cursor?
    repeat {
        let page = try await presenter.fetchOrdersPage(after: cursor, limit: 1_000).value
        if let count = page.count { rows.reserveCapacity(count) }  // the first page counts them
        rows += page.displayedOrders
        cursor = page.next
    } while cursor != nil
    return rows.count
}

/// The loopback shop with 16,000 orders, and an empty offline copy in front of it.
private final class LoopbackShop: Sendable {
    let server: TestHTTPServer
    let store: FallbackOrdersStore
    let database: Database
    let folder = temporaryFolder()

    init() throws {
        let shop = ordersShop(sampleOrders(apiCount))
        server = try TestHTTPServer(keepsConnectionsOpen: true, responder: shop.respond)
        database = try Database(at: folder.appendingPathComponent("orders.sqlite"))
        store = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: server.baseURL)),
            cache: OrdersSQLiteStore(database: database))
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The orders as the list screen formats them; returns how many rows it shows.
@MainActor
func present(_ orders: [Order]) -> Int {
    let presenter = ListOrdersPresenter(
        worker: OrdersWorker(ordersStore: OrdersMemStore(orders: [])), formatter: benchmarkFormatter)
    return presenter.presentFetchedOrders(response: ListOrders.FetchOrders.Response(orders: orders))
        .displayedOrders.count
}

/// The list's formatter, the same on every machine.
private let benchmarkFormatter = OrderFormatter(
    locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC") ?? .current,
    currencyCode: "USD")
