import CSQLite
import Dispatch
import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// `Database.suspend()` and `resume()`: an app suspended holds no lock on its file, whatever was
/// running, and nothing is lost.
@Suite("Database suspension")
struct DatabaseSuspensionTests {
    let folder = TemporaryFolder("DatabaseSuspensionTests")
    var file: URL { folder.file("app.sqlite") }
    static let notes = [Migration(version: 1, sql: "CREATE TABLE notes (text TEXT NOT NULL)")]

    func insert(_ text: String, into database: Database) -> Promise<Void> {
        database.write { try $0.execute("INSERT INTO notes (text) VALUES (?)", [.text(text)]) }
    }

    func texts(of database: Database) -> Promise<[String]> {
        database.read { try $0.query("SELECT text FROM notes ORDER BY rowid") { try $0.string("text") } }
    }

    @Test("a suspended database refuses reads and writes as suspended, and runs them again once resumed")
    func refusedUntilResumed() async throws {
        // Given
        let database = try Database(at: file, migrations: Self.notes)
        _ = await PromiseExpectations.value(of: insert("before", into: database))
        // When
        await database.suspend().value
        let write = await PromiseExpectations.error(of: insert("while suspended", into: database))
        let read = await PromiseExpectations.error(of: texts(of: database))
        database.resume()
        _ = await PromiseExpectations.value(of: insert("after", into: database))
        // Then
        #expect((write as? DatabaseError)?.kind == .suspended && (read as? DatabaseError)?.kind == .suspended)
        #expect(await PromiseExpectations.value(of: texts(of: database)) == ["before", "after"])
        #expect(!database.isSuspended)
    }

    @Test("suspending waits for the write under way, which commits; the write queued behind it is refused")
    func waitsForTheWriteUnderWay() async throws {
        // Given: a write under way, held inside its transaction, and another queued behind it
        let database = try Database(at: file, migrations: Self.notes)
        let (started, gate) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let underWay = database.write { connection in
            try connection.execute("INSERT INTO notes (text) VALUES ('under way')")
            started.signal()
            _ = gate.wait(timeout: .now() + 900)
            try connection.execute("INSERT INTO notes (text) VALUES ('under way, second')")
        }
        try #require(await BlockingWork.run { started.wait(timeout: .now() + 900) == .success })
        let queued = insert("queued", into: database)
        // When
        let suspended = database.suspend()
        #expect(suspended.isPending, "suspended while a write holds its transaction")
        gate.signal()
        await suspended.value
        // Then
        #expect(await PromiseExpectations.value(of: underWay) != nil)
        #expect((await PromiseExpectations.error(of: queued) as? DatabaseError)?.kind == .suspended)
        database.resume()
        #expect(
            await PromiseExpectations.value(of: texts(of: database)) == ["under way", "under way, second"])
    }

    @Test("a suspended database holds no lock: another connection writes the file at once")
    func holdsNoLock() async throws {
        // Given: a database that wrote and is watched, then suspended
        let database = try Database(at: file, migrations: Self.notes)
        _ = await PromiseExpectations.value(of: insert("mine", into: database))
        let seen = DeliveryRecorder<[String]>()
        let observation = database.observe(tables: ["notes"], on: DispatchQueue.global()) { connection in
            try connection.query("SELECT text FROM notes ORDER BY rowid") { try $0.string("text") }
        } onChange: {
            if case .success(let texts) = $0 { seen.record(texts) }
        }
        _ = await seen.next(timeout: 900)
        await database.suspend().value
        // When: another connection (an extension) takes the write lock, with no wait allowed
        let other = try Database(at: file, migrations: Self.notes, busyTimeout: 0)
        let written: Void? = await PromiseExpectations.value(of: insert("the extension's", into: other))
        // Then: it wrote; once resumed, this process sees it
        #expect(written != nil)
        database.resume()
        #expect(await seen.next(timeout: 900) == ["mine", "the extension's"])
        observation.cancel()
    }

    @Test("resuming looks at once for what another connection committed meanwhile, before the next poll")
    func resumeLooksAtOnce() async throws {
        // Given: a database watched through a queue of the test's, suspended, and a commit made
        // meanwhile through another connection
        let database = try Database(at: file, migrations: Self.notes)
        let delivery = DispatchQueue(label: "DatabaseSuspensionTests.delivery")
        let seen = DeliveryRecorder<[String]>()
        let observation = database.observe(tables: ["notes"], on: delivery) { connection in
            try connection.query("SELECT text FROM notes ORDER BY rowid") { try $0.string("text") }
        } onChange: {
            if case .success(let texts) = $0 { seen.record(texts) }
        }
        #expect(await seen.next(timeout: 900) == [])
        await database.suspend().value
        let other = try Database(at: file, migrations: Self.notes)
        _ = await PromiseExpectations.value(of: insert("the extension's", into: other))

        // When: resumed, and a read queued behind the resumption has run
        database.resume()
        _ = await PromiseExpectations.value(of: texts(of: database))
        await BlockingWork.run { delivery.sync {} }

        // Then: the commit was seen by the look the resumption made, not by a later poll (a poll
        // could only have landed between the two, a window of a read's length)
        #expect(seen.all.last == ["the extension's"])
        observation.cancel()
    }
}

extension DatabaseSuspensionTests {
    /// Signals `semaphore` (the context) from SQLite's progress handler: the statement is running.
    static let running: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
        guard let context else { return 0 }
        Unmanaged<DispatchSemaphore>.fromOpaque(context).takeUnretainedValue().signal()
        return 0
    }

    @Test("a long statement running at suspension is interrupted and its transaction rolled back whole")
    func longStatementRolledBack() async throws {
        // Given: a transaction that wrote a row, then runs a statement of minutes (a count to a
        // billion: no disk, and a test that ends, failing, if the interruption is missed)
        let database = try Database(at: file, migrations: Self.notes)
        let running = DispatchSemaphore(value: 0)
        let context = Unmanaged.passRetained(running)
        defer { context.release() }
        let underWay = database.write { connection in
            try connection.execute("INSERT INTO notes (text) VALUES ('first')")
            sqlite3_progress_handler(connection.handle, 1_000, Self.running, context.toOpaque())
            defer { sqlite3_progress_handler(connection.handle, 0, nil, nil) }
            _ = try connection.scalar(
                "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000000) SELECT count(*) FROM n"
            )
        }
        try #require(await BlockingWork.run { running.wait(timeout: .now() + 900) == .success })
        // When: suspended while the statement runs
        await database.suspend().value
        // Then: the write failed as suspended; nothing of it is in the file
        #expect((await PromiseExpectations.error(of: underWay) as? DatabaseError)?.kind == .suspended)
        database.resume()
        #expect(await PromiseExpectations.value(of: texts(of: database)) == [])
    }
}

extension DatabaseSuspensionTests {
    @Test("a feature's tables asked for while suspended are made once resumed, not refused for good")
    func migrationWaitsForResume() async throws {
        // Given: a suspended database
        let database = try Database(at: file, migrations: Self.notes)
        await database.suspend().value
        // When: a feature is made meanwhile (a background launch), then the app resumes
        let feature = FeatureDatabase(
            database, schema: "tags",
            migrations: [Migration(version: 1, sql: "CREATE TABLE tags (name TEXT)")])
        await database.suspend().value  // every block queued before it has run
        let waiting = feature.ready.isPending
        database.resume()
        // Then: it was waiting, and now works
        #expect(waiting)
        let written: Void? = await PromiseExpectations.value(
            of: feature.write { try $0.execute("INSERT INTO tags (name) VALUES ('a')") })
        #expect(written != nil)
    }
}
