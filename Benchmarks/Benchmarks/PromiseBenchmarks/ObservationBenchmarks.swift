import Benchmark
import Foundation
import OfflineKit
import Promises
import Services
import Synchronization

/// Observation at scale: 100 observed reads, ten of each of ten tables, while 1,000 commits
/// change one table, made in this process or through another connection to the file (as another
/// process makes them). Besides the time until every read saw the last commit, the custom metric
/// counts the reads re-run: in this process only the changed table's ten follow each commit;
/// another process's commits are seen by polling `PRAGMA data_version`, and every read re-runs
/// at each poll that finds the file changed.
func observationBenchmarks() {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .custom("reads re-run")], timeUnits: .milliseconds,
        warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 5)

    for elsewhere in [false, true] {
        let name = elsewhere ? "another process" : "this process"
        Benchmark(
            "11 observe 100 reads of 10 tables / 1k commits to one, from \(name)", configuration: timing
        ) {
            benchmark in
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("observed.sqlite")
            let tables = (0..<10).map { "t\($0)" }
            let migrations = [
                Migration(
                    version: 1,
                    sql: tables.map {
                        "CREATE TABLE \($0) (n INTEGER NOT NULL); INSERT INTO \($0) VALUES (0);"
                    }
                    .joined())
            ]
            let database = try Database(at: file, migrations: migrations)
            // As another process would: its own connection to the file, knowing the same schema.
            let writer = elsewhere ? try Database(at: file, migrations: migrations) : database
            let reads = Atomic(0)
            let lastSeen = Atomic(0)
            let (allSeen, seal) = Promise<Void>.pending()
            let handles = (0..<100).map { index in
                let table = tables[index % 10]
                return database.observe(
                    tables: [table], on: .inline,
                    read: { connection -> Int in
                        reads.add(1, ordering: .relaxed)
                        guard case .integer(let n)? = try connection.scalar("SELECT n FROM \(table)") else {
                            return 0
                        }
                        return Int(n)
                    },
                    onChange: { result in
                        if case .success(1_000) = result, lastSeen.add(1, ordering: .relaxed).newValue == 10 {
                            seal.fulfill()
                        }
                    })
            }
            // Every read made its first delivery before the measurement starts.
            try await database.read { _ in }.value
            let before = reads.load(ordering: .relaxed)

            benchmark.startMeasurement()
            for n in 1...1_000 {
                try await writer.write { _ = try $0.execute("UPDATE t0 SET n = ?", [SQLValue(n)]) }.value
            }
            try await allSeen.value
            benchmark.stopMeasurement()

            benchmark.measurement(.custom("reads re-run"), reads.load(ordering: .relaxed) - before)
            for handle in handles { handle.cancel() }
        }
    }
}
