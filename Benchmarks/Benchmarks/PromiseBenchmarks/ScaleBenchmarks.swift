import Benchmark
import Foundation
import Orders
import OrdersTesting
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

    Benchmark("9 list 100k offline orders / FallbackOrdersStore + presenter", configuration: seeded) {
        benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try await hundredThousandOrders(in: folder)
        benchmark.startMeasurement()
        let store = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: URL(fileURLWithPath: "/"))),
            cache: OrdersSQLiteStore(database: try Database(at: file)), reachability: Offline())
        let orders = try await store.fetchOrders().value
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

    Benchmark("10 16k orders from the loopback shop / listed again, unchanged", configuration: timing) {
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

/// A file in `folder` holding 100,000 orders in the offline copy.
private func hundredThousandOrders(in folder: URL) async throws -> URL {
    let file = folder.appendingPathComponent("orders.sqlite")
    try await OrdersSQLiteStore(database: try Database(at: file)).save(sampleOrders(scaleCount), at: Date())
        .value
    return file
}

/// The loopback shop with 16,000 orders, and an empty offline copy in front of it.
private final class LoopbackShop: Sendable {
    let server: TestHTTPServer
    let store: FallbackOrdersStore
    let folder = temporaryFolder()

    init() throws {
        let shop = TestOrdersShop(orders: sampleOrders(apiCount))
        server = try TestHTTPServer(keepsConnectionsOpen: true, responder: shop.respond)
        store = FallbackOrdersStore(
            api: OrdersAPI(client: APIClient(baseURL: server.baseURL)),
            cache: OrdersSQLiteStore(
                database: try Database(at: folder.appendingPathComponent("orders.sqlite"))))
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
        worker: OrdersWorker(ordersStore: OrdersMemStore(orders: [])),
        formatter: OrderFormatter(
            locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC") ?? .current,
            currencyCode: "USD"))
    return presenter.presentFetchedOrders(response: ListOrders.FetchOrders.Response(orders: orders))
        .displayedOrders.count
}
