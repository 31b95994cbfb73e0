import Benchmark
import Foundation
import OfflineKit
import Promises
import Services

/// Seeing and bounding what the device keeps (#85): one eviction pass of a `StorageBudget` over
/// 100,000 listed rows and 1,000 changes made offline, down to half of what they take; and the
/// collection's diagnostics snapshot (outbox and copy) of 10,000 waiting changes.
func budgetBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 0, maxDuration: .seconds(120),
        maxIterations: 3)
    Benchmark("21 storage budget / an eviction pass, 100,000 rows to half", configuration: configuration) {
        benchmark in
        let device = try await KeptCopy(listed: 100_000, changed: 1_000)
        let budget = StorageBudget(database: device.database, bytes: try await device.used() / 2)
        benchmark.startMeasurement()
        let usage = try await budget.enforce().value
        benchmark.stopMeasurement()
        precondition(usage.isWithinBudget && usage.evicted > 40_000)
        let waiting = try await device.notes.outbox.diagnostics().value.changes.count
        precondition(waiting == 1_000)
    }
    Benchmark("21 diagnostics / a snapshot of 10,000 waiting changes", configuration: configuration) {
        benchmark in
        let device = try await KeptCopy(listed: 0, changed: 10_000)
        benchmark.startMeasurement()
        let snapshot = try await device.notes.diagnostics().value
        benchmark.stopMeasurement()
        precondition(snapshot.changes.count == 10_000 && snapshot.copy?.rows == 10_000)
    }
}

/// A note, as a collection keeps it.
private struct Note: OfflineResource {
    var id: String?
    var version: String?
    var text: String
}

/// A database of its own with `listed` notes listed from an API and `changed` more created
/// offline, each waiting in the outbox.
private struct KeptCopy {
    let database: Database
    let notes: OfflineCollection<Note>

    init(listed: Int, changed: Int) async throws {
        database = try Database(at: temporaryFolder().appendingPathComponent("budget.sqlite"))
        let client = APIClient(baseURL: URL(fileURLWithPath: "/"), timeout: 10, retry: .never)
        let listing = (0..<listed).map {
            Note(id: "\($0)", version: "1", text: "A note of about fifty bytes, number \($0)")
        }
        _ = try await OfflineCollection<Note>(database: database, collection: "notes", client: client)
            .list(policy: .networkFirst, showingCopy: { _ in }, fetching: { .value(listing) }).value
        notes = OfflineCollection<Note>(
            database: database, collection: "notes", client: client,
            reachability: ManualConnectivity(.unreachable))
        for index in 0..<changed {
            _ = try await notes.create(Note(text: "Made offline, number \(index)")).value
        }
    }

    /// What the copy takes.
    func used() async throws -> Int {
        try await StorageBudget(database: database, bytes: 0).usage().value.bytes
    }
}
