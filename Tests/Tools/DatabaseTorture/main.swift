import Foundation
import Promises
import Services

// Writes batches of rows in a loop, one transaction per batch, and prints "committed N" after each
// commit, until it is killed: the reliability tests send it SIGKILL mid-write and check the file.
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
var batch = 0
while true {
    let current = batch
    let committed = DispatchSemaphore(value: 0)
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
    .done(on: .inline) { committed.signal() }
    .catch(on: .inline) { error in
        FileHandle.standardError.write(Data("database-torture: \(error)\n".utf8))
        exit(1)
    }
    committed.wait()
    batch += 1
    FileHandle.standardOutput.write(Data("committed \(batch)\n".utf8))
}
