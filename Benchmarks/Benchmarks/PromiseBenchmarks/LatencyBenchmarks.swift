import Benchmark
import Foundation
import OfflineKit
import PromiseMVPTestServer
import Promises
import Services

/// A day's changes sent over a phone's round trip: the loopback API holds every answer 50 ms or
/// 150 ms (±10%), and the outbox sends six changes at once (the default) or one at a time, in the
/// same sitting. 1,000 creates of 1,000 resources, and 100 resources with 10 changes each (which
/// go one after the other per resource).
func latencyBenchmarks() {
    for (row, roundTrip) in [(16, 0.05), (17, 0.15)] {
        let milliseconds = Int(roundTrip * 1_000)
        for (shape, resources, changesEach) in [
            ("1,000 creates", 1_000, 1), ("100 resources x 10 changes", 100, 10),
        ] {
            for (how, inFlight) in [("6 in flight", Outbox.standardChangesInFlight), ("one at a time", 1)] {
                let configuration = Benchmark.Configuration(
                    metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 0,
                    maxDuration: .seconds(inFlight == 1 ? 1 : 60), maxIterations: inFlight == 1 ? 1 : 3)
                Benchmark(
                    "\(row) sync at \(milliseconds) ms a round trip / \(shape), \(how)",
                    configuration: configuration
                ) { benchmark in
                    let device = try LatencyDevice(resources: resources, roundTrip: roundTrip)
                    defer { device.stop() }
                    var outbox = device.outbox
                    outbox.changesInFlight = inFlight
                    try await device.queue(changesEach: changesEach)
                    benchmark.startMeasurement()
                    let report = try await outbox.sync(with: device.client) { _, _, _ in nil }.value
                    benchmark.stopMeasurement()
                    precondition(report.sent.count == resources * changesEach && report.waiting == 0)
                }
            }
        }
    }
}

/// An outbox of `notes` in a file, and a loopback API holding every answer a round trip.
private final class LatencyDevice: Sendable {
    let folder = temporaryFolder()
    let server: TestHTTPServer
    let database: Database
    let outbox: Outbox
    let client: APIClient
    let resources: Int

    init(resources: Int, roundTrip: TimeInterval) throws {
        self.resources = resources
        let api = TestResourceAPI(
            collection: "notes", resources: (0..<resources).map { ["id": "n\($0)", "text": "start"] })
        server = try TestHTTPServer(keepsConnectionsOpen: true, responder: api.respond)
        server.latency = TestHTTPServer.Latency(roundTrip: roundTrip, jitter: roundTrip / 10)
        database = try Database(at: folder.appendingPathComponent("latency.sqlite"))
        outbox = Outbox(database: database, feature: "notes")
        client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
    }

    /// Queues a create of each resource (`changesEach` 1), or `changesEach` updates of each, kept
    /// apart as changes that may have reached the API (so that none merges into another).
    func queue(changesEach: Int) async throws {
        let (outbox, resources) = (outbox, resources)
        try await outbox.ready.value
        try await database.write { connection in
            for change in 0..<changesEach {
                for index in 0..<resources {
                    if changesEach == 1 {
                        try outbox.record(
                            .post, "notes", json: ["text": "new \(index)"], localID: "new-\(index)",
                            in: connection)
                    } else {
                        try outbox.record(
                            .put, "notes/n\(index)", json: ["text": "change \(change)"], localID: "n\(index)",
                            mayHaveArrived: true, in: connection)
                    }
                }
            }
        }.value
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
