import Foundation
import Promises
import Services

// Writes batches of rows in a loop, ten batches asked for at once (one group commit), and prints
// "committed N" as each settles, until it is killed: the reliability tests send it SIGKILL
// mid-write and check that every batch reported is in the file, and none in part.
// Usage: database-torture PATH
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: database-torture PATH\n".utf8))
    exit(2)
}
let schema = Migration(
    version: 1,
    sql: "CREATE TABLE rows (batch INTEGER NOT NULL, position INTEGER NOT NULL, payload TEXT NOT NULL)")
let database: Database
do {
    database = try Database(at: URL(fileURLWithPath: CommandLine.arguments[1]), migrations: [schema])
} catch {
    FileHandle.standardError.write(Data("database-torture: \(error)\n".utf8))
    exit(1)
}
let batchSize = 50
/// Batches asked for together: they arrive while none has started, so they share one commit
/// (group commit), and the kill lands between or inside groups.
let groupSize = 10
var batch = 0
while true {
    let settled = DispatchSemaphore(value: 0)
    for current in batch..<(batch + groupSize) {
        database.write { connection in
            for position in 0..<batchSize {
                try connection.execute(
                    "INSERT INTO rows (batch, position, payload) VALUES (?, ?, ?)",
                    [
                        .integer(Int64(current)), .integer(Int64(position)),
                        .text(String(repeating: "x", count: 200)),
                    ])
            }
        }
        .done(on: .inline) {
            // Settled: committed, so reported. Writes settle in the order they were asked for.
            FileHandle.standardOutput.write(Data("committed \(current + 1)\n".utf8))
            settled.signal()
        }
        .catch(on: .inline) { error in
            FileHandle.standardError.write(Data("database-torture: \(error)\n".utf8))
            exit(1)
        }
    }
    for _ in 0..<groupSize { settled.wait() }
    batch += groupSize
}
