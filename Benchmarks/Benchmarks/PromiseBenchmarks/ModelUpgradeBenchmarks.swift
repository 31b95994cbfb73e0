import Benchmark
import Foundation
import OfflineKit
import PromiseMVPTestServer
import Promises
import Services

/// An app update over a day offline: 10,000 rows of a collection's copy and 1,000 changes waiting,
/// written at model 1, brought to model 3 (a field renamed, one added) when the new version first
/// reads the collection. Timed from that first read to its answer.
func modelUpgradeBenchmarks() {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], timeUnits: .milliseconds, warmupIterations: 1,
        maxDuration: .seconds(20), maxIterations: 5)

    Benchmark(
        "13 model upgrade, 10k rows and 1k waiting changes / first read at model 3", configuration: timing
    ) {
        benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.sqlite")
        try await seedAtModel1(file)
        let notes = OfflineCollection<NoteAtModel3>(
            database: try Database(at: file), collection: "notes",
            client: APIClient(baseURL: URL(fileURLWithPath: "/")), reachability: NeverReachable()
        ).model(version: 3, steps: [.renaming("text", to: "body"), .adding("pinned", default: false)])
        benchmark.startMeasurement()
        let status = try await notes.status().value
        benchmark.stopMeasurement()
        precondition(status.waiting == 1_000 && status.damaged == 0, "\(status.waiting) changes wait")
    }
}

private struct NoteAtModel1: OfflineResource {
    var id: String?
    var version: String?
    var title: String
    var text: String
}

private struct NoteAtModel3: OfflineResource {
    var id: String?
    var version: String?
    var title: String
    var body: String
    var pinned: Bool
}

private struct NeverReachable: ConnectivityMonitor {
    var isReachable: Bool { false }
}

/// 10,000 notes listed from a loopback API, then 1,000 of them edited offline, at model 1.
private func seedAtModel1(_ file: URL) async throws {
    let api = TestResourceAPI(
        collection: "notes",
        resources: (0..<10_000).map {
            NoteAtModel1(id: "note-\($0)", title: "Note \($0)", text: "text \($0)")
        })
    let server = try TestHTTPServer(keepsConnectionsOpen: true, responder: api.respond)
    defer { server.stop() }
    let database = try Database(at: file)
    let online = OfflineCollection<NoteAtModel1>(
        database: database, collection: "notes", client: APIClient(baseURL: server.baseURL))
    _ = try await online.list().value
    let offline = OfflineCollection<NoteAtModel1>(
        database: database, collection: "notes", client: APIClient(baseURL: server.baseURL),
        reachability: NeverReachable())
    for index in stride(from: 0, to: 10_000, by: 10) {
        _ = try await offline.update(id: "note-\(index)") { $0.text = "edited \(index)" }.value
    }
}
