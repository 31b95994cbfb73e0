import CSQLite  // SQLite, on every platform: Package.swift says how
import Foundation
import PromiseMVPTesting
import Promises
import Services
import Testing

@Suite("Database")
struct DatabaseTests {
    let temporary = TemporaryFolder("DatabaseTests")
    var folder: URL { temporary.url }

    var file: URL {
        folder.appendingPathComponent("nested/data/app.sqlite")
    }

    @Test("opening a missing file creates it and its folders, owner-only, at the newest schema")
    func createsFileAndMigrates() async throws {
        // When
        let database = try Database(at: file, migrations: [TestSchema.v1, TestSchema.v2])

        // Then
        #expect(await PromiseExpectations.value(of: database.schemaVersion) == 2)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let inserted = database.write { connection in
            try connection.execute("INSERT INTO songs (title, artist) VALUES (?, ?)", ["Blue", "Joni"])
        }
        #expect(await PromiseExpectations.value(of: inserted) == 1)
    }

    @Test("a file at an older schema is migrated and keeps its rows")
    func migratesOlderFile() async throws {
        // Given
        do {
            let old = try Database(at: file, migrations: [TestSchema.v1])
            _ = await PromiseExpectations.value(
                of: old.write { try $0.execute("INSERT INTO songs (title) VALUES (?)", ["Kept"]) })
        }

        // When
        let database = try Database(at: file, migrations: [TestSchema.v1, TestSchema.v2])

        // Then
        let rows = await PromiseExpectations.value(
            of: database.read { try $0.query("SELECT title, artist FROM songs") })
        #expect(rows?.count == 1)
        #expect(try rows?.first?.string("title") == "Kept")
        #expect(rows?.first?["artist"] == .null)
        #expect(await PromiseExpectations.value(of: database.schemaVersion) == 2)
    }

    @Test("a file written by a newer version is refused and left unchanged")
    func refusesNewerSchema() throws {
        // Given
        _ = try Database(at: file, migrations: [TestSchema.v1, TestSchema.v2])
        let before = try Data(contentsOf: file)

        // When
        let error = #expect(throws: DatabaseError.self) {
            try Database(at: file, migrations: [TestSchema.v1])
        }

        // Then
        #expect(error?.kind == .newerSchema(found: 2, known: 1))
        #expect(error?.description.contains(file.path) == true)
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("a file that is not a database gives a clear error and is left untouched")
    func refusesForeignFile() throws {
        // Given
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: file)

        // When
        let error = #expect(throws: DatabaseError.self) {
            try Database(at: file, migrations: [TestSchema.v1])
        }

        // Then
        #expect(error?.kind == .notADatabase)
        #expect(error?.description.contains("not a database") == true)
        #expect(error?.description.contains(file.path) == true)
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test("a write that throws rolls back everything it did")
    func rollsBackOnError() async throws {
        // Given
        let database = try Database.inMemory(migrations: [TestSchema.v1])
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("INSERT INTO songs (title) VALUES (?)", ["Before"]) })

        // When
        let failed = database.write { connection in
            try connection.execute("INSERT INTO songs (title) VALUES (?)", ["Lost"])
            try connection.execute("INSERT INTO songs (title) VALUES (?)", ["Before"])  // unique: fails
        }

        // Then
        let error = await PromiseExpectations.error(of: failed) as? DatabaseError
        #expect(error?.kind == .constraint)
        #expect(error?.sql?.contains("INSERT INTO songs") == true)
        let titles = await PromiseExpectations.value(
            of: database.read { try $0.query("SELECT title FROM songs").map { try $0.string("title") } })
        #expect(titles == ["Before"])
    }

    @Test("text and blobs come back byte for byte: a NUL inside text, an empty blob, non-ASCII text")
    func valuesRoundTripExactly() async throws {
        // Given
        let database = try Database.inMemory(migrations: [
            Migration(version: 1, sql: "CREATE TABLE kept (text TEXT, blob BLOB)")
        ])
        let texts = ["Evil\u{00}FORGED", "", "Café €\u{202E}", "\u{00}"]

        // When
        _ = await PromiseExpectations.value(
            of: database.write { connection in
                for text in texts {
                    try connection.execute(
                        "INSERT INTO kept (text, blob) VALUES (?, ?)", [.text(text), .blob(Data())])
                }
            })
        let rows = await PromiseExpectations.value(
            of: database.read {
                try $0.query("SELECT text, blob, typeof(blob) AS kind FROM kept ORDER BY rowid") {
                    (try $0.string("text"), try $0.data("blob"), try $0.string("kind"))
                }
            })

        // Then
        #expect(rows?.map(\.0) == texts)
        #expect(rows?.map(\.1) == Array(repeating: Data(), count: texts.count))
        #expect(rows?.map(\.2) == Array(repeating: "blob", count: texts.count))
    }

    @Test("a row's values are found by column name, among names of the same length and long ones")
    func columnsAreFoundByName() async throws {
        // Given
        let database = try Database(at: file, migrations: [TestSchema.v1])
        let sql = "SELECT 'T' AS title, 'A' AS album, 7 AS duration_seconds, 'X' AS duration_secondz"

        // When
        let read = database.read { connection in
            try connection.query(sql) { row in
                [
                    try row.string("album"), try row.string("title"), String(try row.int("duration_seconds")),
                    try row.string("duration_secondz"),
                ]
            }
        }
        let missing = database.read { connection in
            try connection.query(sql) { row in try row.string("titles") }
        }

        // Then
        #expect(await PromiseExpectations.value(of: read) == [["A", "T", "7", "X"]])
        let error = await PromiseExpectations.error(of: missing) as? DatabaseError
        #expect(error?.kind == .typeMismatch)
        #expect(error?.message.contains("no column titles") == true)
    }

    @Test(
        "rows are equal when their columns and values are: an observation of rows sees no change in a read again"
    )
    func rowsCompareByColumnsAndValues() async throws {
        // Given
        let database = try Database(at: file, migrations: [TestSchema.v1])

        // When
        let rows = await PromiseExpectations.value(
            of: database.read { connection in
                (
                    try connection.query("SELECT 1 AS x, 'a' AS y"),
                    try connection.query("SELECT 1 AS x, 'a' AS y"),
                    try connection.query("SELECT 1 AS z, 'a' AS y"),
                    try connection.query("SELECT 2 AS x, 'a' AS y")
                )
            })

        // Then
        let (first, again, renamed, other) = try #require(rows)
        #expect(first == again)
        #expect(first != renamed && first != other)
    }

    @Test("a statement given fewer values than it has parameters is refused, never run with NULLs")
    func missingParameters() async throws {
        // Given
        let database = try Database(at: file, migrations: [TestSchema.v1])

        // When
        let error = await PromiseExpectations.error(
            of: database.write { try $0.execute("SELECT ?, ?", [.text("one")]) })

        // Then
        #expect((error as? DatabaseError)?.message == "1 values for 2 parameters")
    }

    @Test("a constraint that refuses a change is named by SQLite's extended code: which kind of constraint")
    func constraintCode() async throws {
        // Given
        let database = try Database(at: file, migrations: [TestSchema.v1])
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("CREATE TABLE tags (name TEXT PRIMARY KEY)") })

        // When
        let error = await PromiseExpectations.error(
            of: database.write { connection in
                try connection.execute("INSERT INTO tags VALUES ('a')")
                try connection.execute("INSERT INTO tags VALUES ('a')")
            })

        // Then: SQLITE_CONSTRAINT_PRIMARYKEY, not the bare SQLITE_CONSTRAINT
        let refused = error as? DatabaseError
        #expect(refused?.kind == .constraint)
        #expect(refused?.code == SQLITE_CONSTRAINT | (6 << 8))
    }

    @Test("writers on many threads at once lose no row")
    func concurrentWritersLoseNothing() async throws {
        // Given
        let database = try Database(at: file, migrations: [TestSchema.v1])

        // When
        let writes = (0..<400).map { index in
            DispatchQueue.global().sync {
                database.write {
                    try $0.execute("INSERT INTO songs (title) VALUES (?)", [.text("song \(index)")])
                }
            }
        }
        _ = await when(resolved: writes).value

        // Then
        let count = await PromiseExpectations.value(
            of: database.read { try $0.scalar("SELECT count(*) FROM songs") })
        #expect(count == .integer(400))
    }

    @Test("text full of quotes and SQL keywords round-trips unchanged")
    func hostileTextRoundTrips() async throws {
        // Given
        let database = try Database.inMemory(migrations: [TestSchema.v1])
        let titles = [
            "Robert'); DROP TABLE songs;--", #"She said "hi""#, "' OR '1'='1", "SELECT * FROM songs",
            "Ünïcödé ♫ 🎵", "back\\slash", "",
        ]

        // When
        let stored = database.write { connection in
            for title in titles {
                try connection.execute("INSERT INTO songs (title) VALUES (?)", [.text(title)])
            }
            return try connection.query("SELECT title FROM songs ORDER BY id").map { try $0.string("title") }
        }

        // Then
        #expect(await PromiseExpectations.value(of: stored) == titles)
    }

    @Test("a missing table is an error that names it")
    func missingTable() async throws {
        // Given
        let database = try Database.inMemory()

        // When
        let error = await PromiseExpectations.error(
            of: database.read { try $0.query("SELECT * FROM albums") })

        // Then
        let databaseError = error as? DatabaseError
        #expect(databaseError?.kind == .missingSchema)
        #expect(databaseError?.description.contains("no such table: albums") == true)
    }

    @Test("a database locked by another connection fails after the busy timeout, with a clear error")
    func lockedDatabase() async throws {
        // Given
        let holder = try Database(at: file, migrations: [TestSchema.v1])
        let waiter = try Database(at: file, migrations: [TestSchema.v1], busyTimeout: 0.1)
        let gate = DispatchSemaphore(value: 0)
        let (locked, lockedSeal) = Promise<Void>.pending()
        let holding = holder.write { connection in
            try connection.execute("INSERT INTO songs (title) VALUES (?)", ["held"])
            lockedSeal.fulfill()
            // Keep the write transaction, and its lock, open until the test has tried to write.
            gate.wait()
        }
        _ = await PromiseExpectations.value(of: locked)

        // When
        let blocked = waiter.write { try $0.execute("INSERT INTO songs (title) VALUES (?)", ["blocked"]) }

        // Then
        let error = await PromiseExpectations.error(of: blocked) as? DatabaseError
        #expect(error?.kind == .busy)
        #expect(
            error?.description.contains("\(file.path): the database is locked by another program") == true)
        gate.signal()
        #expect(await PromiseExpectations.value(of: holding) != nil)
    }

    @Test("a file at its newest schema opens while another connection holds the write lock, at once")
    func opensWhileAnotherWrites() async throws {
        // Given: the file made and brought up to date, and another connection (another process,
        // such as an extension) inside a write transaction, held there
        let holder = try Database(at: file, migrations: [TestSchema.v1])
        let gate = DispatchSemaphore(value: 0)
        let (locked, lockedSeal) = Promise<Void>.pending()
        let holding = holder.write { connection in
            try connection.execute("INSERT INTO songs (title) VALUES (?)", ["held"])
            lockedSeal.fulfill()
            _ = gate.wait(timeout: .now() + 900)
        }
        _ = await PromiseExpectations.value(of: locked)

        // When: opened again, with no wait for a lock allowed
        let opened = Result { try Database(at: file, migrations: [TestSchema.v1], busyTimeout: 0) }
        gate.signal()

        // Then: it opened, and reads what was committed
        let database = try #require(try? opened.get(), "\(opened)")
        #expect(await PromiseExpectations.value(of: holding) != nil)
        let titles = await PromiseExpectations.value(
            of: database.read { try $0.query("SELECT title FROM songs") { try $0.string("title") } })
        #expect(titles == ["held"])
    }
}
