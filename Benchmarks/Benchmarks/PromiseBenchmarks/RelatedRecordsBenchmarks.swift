import Benchmark
import Foundation
import OfflineKit
import PromiseMVPTestServer
import Promises
import Services

/// Related records made offline (`OfflineCollection.referencing`): what a parent's answer costs
/// when 1,000 children wait for it, and a sync of 100 parents with 10 children each beside 1,100
/// unrelated creates, against the same loopback API in the same sitting.
func relatedRecordsBenchmarks() {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, warmupIterations: 1,
        maxDuration: .seconds(20), maxIterations: 5)

    Benchmark("14 a parent answered, 1,000 children waiting / the parent's sync", configuration: timing) {
        benchmark in
        let device = try RelatedDevice()
        defer { device.stop() }
        try await device.queue(parents: 1, childrenEach: 1_000)
        benchmark.startMeasurement()
        let report = try await device.projects.sync().value
        benchmark.stopMeasurement()
        precondition(report.sent.count == 1)
    }

    Benchmark(
        "14 a parent answered, 1,000 children waiting / the children read naming its id",
        configuration: timing
    ) {
        benchmark in
        let device = try RelatedDevice()
        defer { device.stop() }
        try await device.queue(parents: 1, childrenEach: 1_000)
        _ = try await device.projects.sync().value
        benchmark.startMeasurement()
        let snapshot = try await device.tasks.snapshot().value
        benchmark.stopMeasurement()
        precondition(snapshot.values.allSatisfy { $0.projectID == "projects-1" })
    }

    Benchmark("15 sync 1,100 creates / 100 parents x 10 children", configuration: timing) { benchmark in
        let device = try RelatedDevice()
        defer { device.stop() }
        try await device.queue(parents: 100, childrenEach: 10)
        benchmark.startMeasurement()
        let parents = try await device.projects.sync().value
        let children = try await device.tasks.sync().value
        benchmark.stopMeasurement()
        precondition(parents.sent.count == 100 && children.sent.count == 1_000)
    }

    Benchmark("15 sync 1,100 creates / unrelated", configuration: timing) { benchmark in
        let device = try RelatedDevice()
        defer { device.stop() }
        try await device.queue(parents: 0, childrenEach: 0, unrelated: 1_100)
        benchmark.startMeasurement()
        let report = try await device.tasks.sync().value
        benchmark.stopMeasurement()
        precondition(report.sent.count == 1_100)
    }
}

private struct BenchProject: OfflineResource {
    var id: String?
    var version: String?
    var name: String
}

private struct BenchChild: OfflineResource {
    var id: String?
    var version: String?
    var title: String
    var projectID: String?
}

private struct Unreachable: ConnectivityMonitor {
    var isReachable: Bool { false }
}

/// Projects and tasks in one file, behind one loopback API for both.
private final class RelatedDevice: Sendable {
    let projectsAPI = TestResourceAPI(collection: "projects")
    let tasksAPI = TestResourceAPI(collection: "tasks")
    let server: TestHTTPServer
    let folder = temporaryFolder()
    let projects: OfflineCollection<BenchProject>
    let tasks: OfflineCollection<BenchChild>
    let offlineProjects: OfflineCollection<BenchProject>
    let offlineTasks: OfflineCollection<BenchChild>

    init() throws {
        let (projectsAPI, tasksAPI) = (projectsAPI, tasksAPI)
        server = try TestHTTPServer(keepsConnectionsOpen: true) { request in
            request.path.hasPrefix("/projects") ? projectsAPI.respond(request) : tasksAPI.respond(request)
        }
        let database = try Database(at: folder.appendingPathComponent("related.sqlite"))
        let client = APIClient(baseURL: server.baseURL)
        func collections(_ reachability: any ConnectivityMonitor) -> (
            OfflineCollection<BenchProject>, OfflineCollection<BenchChild>
        ) {
            let projects = OfflineCollection<BenchProject>(
                database: database, collection: "projects", client: client, reachability: reachability)
            let tasks = OfflineCollection<BenchChild>(
                database: database, collection: "tasks", client: client, reachability: reachability
            ).referencing(.field(\.projectID, to: projects))
            return (projects, tasks)
        }
        (projects, tasks) = collections(AssumeReachable())
        (offlineProjects, offlineTasks) = collections(Unreachable())
    }

    /// Made offline: `parents` projects, `childrenEach` tasks naming each, `unrelated` tasks naming none.
    func queue(parents: Int, childrenEach: Int, unrelated: Int = 0) async throws {
        for parent in 0..<parents {
            let project = try await offlineProjects.create(BenchProject(name: "Project \(parent)")).value
            for child in 0..<childrenEach {
                _ = try await offlineTasks.create(BenchChild(title: "Task \(child)", projectID: project.id))
                    .value
            }
        }
        for index in 0..<unrelated {
            _ = try await offlineTasks.create(BenchChild(title: "Task \(index)")).value
        }
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
