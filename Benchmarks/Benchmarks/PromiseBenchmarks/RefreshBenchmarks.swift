import Benchmark
import Foundation
import OfflineKit
import PromiseMVPTestServer
import Promises
import Services

/// Bringing another device's changes down over 16,000 resources: the change feed against a whole
/// listing, in the same sitting. The rows written are counted by SQLite (`total_changes()`).
func refreshBenchmarks() {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, warmupIterations: 1,
        maxDuration: .seconds(10), maxIterations: 5)

    Benchmark("12 16k resources, 10 changed elsewhere / refresh through the feed", configuration: timing) {
        benchmark in
        let device = try await RefreshDevice()
        defer { device.stop() }
        try await device.tenChanges()
        let before = try await device.rowsWritten()
        benchmark.startMeasurement()
        let refreshed = try await device.tasks.refresh().value
        benchmark.stopMeasurement()
        let written = try await device.rowsWritten() - before
        precondition(
            refreshed == .applied(changes: 10, deletions: 0) && written == 11, "\(written) rows written")
    }

    Benchmark("12 16k resources, 10 changed elsewhere / listed whole", configuration: timing) { benchmark in
        let device = try await RefreshDevice()
        defer { device.stop() }
        try await device.tenChanges()
        benchmark.startMeasurement()
        let listed = try await device.tasks.list(policy: .networkOnly).value
        benchmark.stopMeasurement()
        precondition(listed.value.items.count == resourceCount)
    }

    Benchmark("12 16k resources, unchanged / refresh (304)", configuration: timing) { benchmark in
        let device = try await RefreshDevice(feed: false)
        defer { device.stop() }
        let before = try await device.rowsWritten()
        benchmark.startMeasurement()
        let refreshed = try await device.tasks.refresh().value
        benchmark.stopMeasurement()
        let written = try await device.rowsWritten() - before
        precondition(refreshed == .unchanged && written == 1, "\(written) rows written")
    }

    Benchmark("12 16k resources, unchanged / refresh whole (no validators)", configuration: timing) {
        benchmark in
        let device = try await RefreshDevice(feed: false)
        defer { device.stop() }
        try await device.database.write { try $0.forgetCacheValidators("offline:tasks") }.value
        benchmark.startMeasurement()
        let refreshed = try await device.tasks.refresh().value
        benchmark.stopMeasurement()
        precondition(refreshed == .listed(count: resourceCount))
    }
}

private let resourceCount = 16_000

/// A task as the benchmark's API keeps it.
private struct BenchTask: OfflineResource, Equatable {
    var id: String?
    var version: String?
    var title: String
    var done: Bool
}

/// A device that listed 16,000 tasks from a loopback API with a change feed.
private final class RefreshDevice: Sendable {
    let api: TestResourceAPI
    let server: TestHTTPServer
    let database: Database
    let tasks: OfflineCollection<BenchTask>
    let folder = temporaryFolder()

    init(feed: Bool = true) async throws {
        api = TestResourceAPI(
            collection: "tasks",
            resources: (0..<resourceCount).map {
                BenchTask(id: "task-\($0)", title: "Task \($0)", done: false)
            })
        server = try TestHTTPServer(keepsConnectionsOpen: true, responder: api.respond)
        database = try Database(at: folder.appendingPathComponent("tasks.sqlite"))
        let plain = OfflineCollection<BenchTask>(
            database: database, collection: "tasks", client: APIClient(baseURL: server.baseURL))
        tasks = feed ? plain.followingChanges() : plain
        _ = try await tasks.list().value
    }

    /// Ten tasks changed in the API, as another device would.
    func tenChanges() async throws {
        for index in stride(from: 0, to: resourceCount, by: resourceCount / 10) {
            api.edit("task-\(index)", ["title": "Changed \(index)"])
        }
    }

    /// The rows SQLite wrote on the database's connection so far.
    func rowsWritten() async throws -> Int64 {
        try await database.read { connection -> Int64 in
            guard case .integer(let changes) = try connection.scalar("SELECT total_changes()") else {
                return 0
            }
            return changes
        }.value
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
