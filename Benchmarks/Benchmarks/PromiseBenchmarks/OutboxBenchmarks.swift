import Benchmark
import Foundation
import Orders
import OrdersTesting
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

    Benchmark("6 outbox queue 1k offline creates / FallbackOrdersStore", configuration: timing) { benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try offlineStore(in: folder)
        _ = try await store.syncStatus().value  // schema ready before measuring
        benchmark.startMeasurement()
        for _ in 0..<count {
            _ = try await store.createOrder(order).value
        }
        benchmark.stopMeasurement()
        let waiting = try await store.syncStatus().value.waiting
        precondition(waiting == count)
    }

    Benchmark("6 outbox sync 1k creates / loopback shop", configuration: timing) { benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let offline = try offlineStore(in: folder)
        for _ in 0..<count {
            _ = try await offline.createOrder(order).value
        }
        let shop = TestOrdersShop()
        let server = try TestHTTPServer(responder: shop.respond)
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
}

/// The orders store with the shop out of reach, on a new file in `folder`.
private func offlineStore(in folder: URL) throws -> FallbackOrdersStore {
    FallbackOrdersStore(
        api: OrdersAPI(client: APIClient(baseURL: URL(fileURLWithPath: "/"))),
        cache: OrdersSQLiteStore(database: try Database(at: folder.appendingPathComponent("orders.sqlite"))),
        reachability: Offline())
}
