import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database under faults: a writer killed mid-write, a full disk, a read-only file.
@Suite("SQLite faults")
struct SQLiteFaultTests {
    let folder = TemporaryFolder("SQLiteFaultTests")
    var file: URL { folder.file("torture.sqlite") }

    #if SUBPROCESSES  // starts a writer as a subprocess (Package.swift, `subprocesses`)
        @Test("a writer killed between or inside group commits leaves each settled batch, none in part")
        func killedWriterLosesNothingCommitted() async throws {
            // Given: a child process writing batches of 50 rows, ten at once (one group commit)
            let output = Pipe()
            let child = try ChildProcess(
                BuildProducts.executable("database-torture"), [file.path], output: output)

            // When: it has committed at least 40 batches, it is killed in the middle of the next
            var reported = 0
            var buffer = Data()
            while reported < 40 {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                buffer.append(chunk)
                let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n")
                reported = lines.compactMap { Int($0.split(separator: " ").last ?? "") }.max() ?? 0
            }
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()

            // Then
            #expect(child.terminatedBySignal)
            #expect(reported >= 40)
            let database = try Database(at: file, migrations: [TortureSchema.v1])
            let counts = await PromiseExpectations.value(
                of: database.read { connection in
                    try connection.query(
                        "SELECT batch, count(*) AS rows FROM rows GROUP BY batch ORDER BY batch"
                    ) { row in
                        (try row.int("batch"), try row.int("rows"))
                    }
                })
            let batches = counts ?? []
            #expect(batches.count >= reported)
            #expect(
                batches.allSatisfy { $0.1 == 50 },
                "a batch was partly written: \(batches.filter { $0.1 != 50 })")
            #expect(batches.map(\.0) == Array(0..<batches.count))
            let integrity = await PromiseExpectations.value(
                of: database.read { try $0.scalar("PRAGMA integrity_check") })
            #expect(integrity == .text("ok"))
        }

        @Test(
            "a new database file is its owner's alone (0600), even under a umask that takes the owner's bits")
        func ownerOnlyUnderAnyUmask() throws {
            // Given: a writer started under umask 0277, which leaves a new file read-only to its owner
            let output = Pipe()
            let child = try ChildProcess(
                URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c", "umask 0277 && exec \"$0\" \"$1\"",
                    BuildProducts.executable("database-torture").path, file.path,
                ],
                output: output)

            // When: it made the file and committed its first batch (or failed, and ended)
            let first = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()

            // Then
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(first.hasPrefix("committed"))
        }
    #endif

    @Test("a full disk is a clear error, and what was committed before stays")
    func fullDisk() async throws {
        // Given: a database that may not grow past a few pages, as on a full disk
        let database = try Database(at: file, migrations: [TortureSchema.v1])
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("PRAGMA max_page_count = 40") })
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("INSERT INTO rows VALUES (?, ?, ?)", [0, 0, "kept"]) })

        // When
        let error = await PromiseExpectations.error(
            of: database.write { connection in
                for position in 0..<10_000 {
                    try connection.execute(
                        "INSERT INTO rows VALUES (?, ?, ?)",
                        [1, .integer(Int64(position)), .text(String(repeating: "y", count: 500))])
                }
            })

        // Then
        let databaseError = error as? DatabaseError
        #expect(databaseError?.kind == .diskFull)
        #expect(databaseError?.description.contains("the disk is full") == true)
        #expect(databaseError?.description.contains(file.path) == true)
        let rows = await PromiseExpectations.value(
            of: database.read { try $0.scalar("SELECT count(*) FROM rows") })
        #expect(rows == .integer(1))
    }

    @Test("a read-only file is refused with a clear error, and left as it was")
    func readOnlyFile() throws {
        // Given: a database file nobody may write; root may write any file, unless it is immutable
        _ = try Database(at: file, migrations: [TortureSchema.v1])
        let before = try Data(contentsOf: file)
        try Self.makeReadOnly(file, true)
        defer { try? Self.makeReadOnly(file, false) }

        // When
        let error = #expect(throws: DatabaseError.self) {
            try Database(at: file, migrations: [TortureSchema.v1])
        }

        // Then
        #expect(error?.kind == .readOnly)
        #expect(error?.description.contains("cannot be written") == true)
        #expect(error?.description.contains(file.path) == true)
        #expect(try Data(contentsOf: file) == before)
    }

    /// Takes away (or gives back) the right to write `file`: `chmod` for a user, the immutable
    /// flag for root, whom permissions do not stop (`chattr +i` on Linux, `chflags uchg` on macOS,
    /// which stop root too).
    static func makeReadOnly(_ file: URL, _ readOnly: Bool) throws {
        if getuid() != 0 {
            chmod(file.path, readOnly ? 0o400 : 0o600)
            return
        }
        #if SUBPROCESSES
            #if os(Linux)
                let (tool, flag) = ("/usr/bin/chattr", readOnly ? "+i" : "-i")
            #else
                let (tool, flag) = ("/usr/bin/chflags", readOnly ? "uchg" : "nouchg")
            #endif
            let process = try ChildProcess(URL(fileURLWithPath: tool), [flag, file.path])
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "\(tool) cannot make \(file.path) immutable here")
        #else
            try #require(Bool(false), "root cannot be kept from writing \(file.path) here")
        #endif
    }
}

enum TortureSchema {
    static let v1 = Migration(
        version: 1,
        sql: "CREATE TABLE rows (batch INTEGER NOT NULL, position INTEGER NOT NULL, payload TEXT NOT NULL)")
}
