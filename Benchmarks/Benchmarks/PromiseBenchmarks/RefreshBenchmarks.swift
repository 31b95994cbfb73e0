import Benchmark
import Foundation
import PromiseMVPTesting
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
        precondition(refreshed.value.items.count == resourceCount && written == 11, "\(written) rows written")
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

    Benchmark("12 16k resources, unchanged / listed again (304)", configuration: timing) { benchmark in
        let device = try await RefreshDevice()
        defer { device.stop() }
        let before = try await device.rowsWritten()
        benchmark.startMeasurement()
        let listed = try await device.tasks.list(policy: .networkOnly).value
        benchmark.stopMeasurement()
        let written = try await device.rowsWritten() - before
        precondition(listed.value.items.count == resourceCount && written == 1, "\(written) rows written")
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

    init() async throws {
        api = TestResourceAPI(
            collection: "tasks",
            resources: (0..<resourceCount).map { BenchTask(id: "task-\($0)", title: "Task \($0)", done: false) })
        server = try TestHTTPServer(keepsConnectionsOpen: true, responder: api.respond)
        database = try Database(at: folder.appendingPathComponent("tasks.sqlite"))
        tasks = OfflineCollection<BenchTask>(
            database: database, collection: "tasks", client: APIClient(baseURL: server.baseURL)
        ).followingChanges()
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
            guard case .integer(let changes) = try connection.scalar("SELECT total_changes()") else { return 0 }
            return changes
        }.value
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
