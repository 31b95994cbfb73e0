import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

/// Observed reads: a value at once, again after each commit that changes it, whoever commits.
@Suite("Database: observing a read")
struct DatabaseObservationTests {
    let folder = TemporaryFolder("DatabaseObservationTests")

    static let schema = [
        Migration(
            version: 1,
            sql: """
                CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL);
                CREATE TABLE tags (name TEXT PRIMARY KEY);
                """)
    ]

    func open(_ name: String = "notes.sqlite") throws -> Database {
        try Database(at: folder.file(name), migrations: Self.schema)
    }

    /// The notes' texts in order.
    @Sendable static func texts(_ connection: Connection) throws -> [String] {
        try connection.query("SELECT text FROM notes ORDER BY id") { try $0.string("text") }
    }

    static func insert(_ id: String, _ text: String, into database: Database) async {
        _ = await PromiseExpectations.value(
            of: database.write {
                try $0.execute(
                    "INSERT OR REPLACE INTO notes (id, text) VALUES (?, ?)", [.text(id), .text(text)])
            })
    }

    /// Observes the notes' texts, counting each read in `reads`.
    func observe(_ database: Database, counting reads: Locked<Int> = Locked(0)) -> (
        DeliveryRecorder<[String]>, ObservationHandle
    ) {
        let values = DeliveryRecorder<[String]>()
        let handle = database.observe(tables: ["notes"], on: .inline) { connection in
            reads.withLock { $0 += 1 }
            return try Self.texts(connection)
        } onChange: {
            values.record((try? $0.get()) ?? ["error"])
        }
        return (values, handle)
    }

    @Test(
        "the value comes at once, then once after each commit that changes it; equal values are not delivered again"
    )
    func writesInThisProcess() async throws {
        // Given
        let database = try open()
        await Self.insert("1", "first", into: database)
        let (values, handle) = observe(database)
        #expect(await values.next() == ["first"])
        // When: a change, a change to another table, a write of the same value, then a change
        await Self.insert("2", "second", into: database)
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("INSERT INTO tags VALUES ('x')") })
        await Self.insert("2", "second", into: database)
        await Self.insert("3", "third", into: database)
        // Then: one delivery per change of the value, in order
        #expect(await values.next() == ["first", "second"])
        #expect(await values.next() == ["first", "second", "third"])
        #expect(values.all.count == 3)
        handle.cancel()
    }

    @Test("a commit that changes only other tables does not run the read again")
    func otherTablesNotRead() async throws {
        // Given: an observation of the notes that counts its reads
        let database = try open()
        let reads = Locked(0)
        let (values, handle) = observe(database, counting: reads)
        #expect(await values.next() == [])
        // When: three commits to the tags, then one to the notes
        for name in ["a", "b", "c"] {
            _ = await PromiseExpectations.value(
                of: database.write { try $0.execute("INSERT INTO tags VALUES (?)", [.text(name)]) })
        }
        await Self.insert("1", "first", into: database)
        // Then: read at once and after the notes' commit, never after the tags'
        #expect(await values.next() == ["first"])
        #expect(reads.withLock { $0 } == 2)
        // When: three more commits to the tags, after the notes' one, then another note
        for name in ["d", "e", "f"] {
            _ = await PromiseExpectations.value(
                of: database.write { try $0.execute("INSERT INTO tags VALUES (?)", [.text(name)]) })
        }
        await Self.insert("2", "second", into: database)
        // Then: the notes' commit is not taken as changing the notes again
        #expect(await values.next() == ["first", "second"])
        #expect(reads.withLock { $0 } == 3)
        handle.cancel()
    }

    @Test(
        "refreshing the observations of a table runs its reads again, not the others'; suspended, at the resume"
    )
    func refreshRunsTheTablesReads() async throws {
        // Given: an observation of the notes and one of the tags, each counting its reads
        let database = try open()
        let (noteReads, tagReads) = (Locked(0), Locked(0))
        let (values, notes) = observe(database, counting: noteReads)
        let tags = database.observe(tables: ["tags"], on: .inline) { _ in
            tagReads.withLock { reads in
                reads += 1
                return reads
            }
        } onChange: { _ in
        }
        defer {
            notes.cancel()
            tags.cancel()
        }
        #expect(await values.next() == [])

        // When: the notes refreshed (named in another case), a read after it; then the same while
        // the database is suspended
        database.refreshObservations(of: ["NOTES"])
        _ = await PromiseExpectations.value(of: database.read { _ in })
        let (notesRead, tagsRead) = (noteReads.withLock { $0 }, tagReads.withLock { $0 })
        _ = await PromiseExpectations.value(of: database.suspend().asPromise())
        database.refreshObservations(of: ["notes"])
        let refused = await PromiseExpectations.error(of: database.read { _ in })  // on the queue, after it
        let readsWhileSuspended = noteReads.withLock { $0 } - notesRead
        database.resume()
        _ = await PromiseExpectations.value(of: database.read { _ in })  // after the resume's refresh

        // Then: the notes read once more, the tags not; nothing while suspended, once at the resume;
        // the same value not delivered again
        #expect(notesRead == 2 && tagsRead == 1)
        #expect(refused != nil && readsWhileSuspended == 0)
        #expect(noteReads.withLock { $0 } == 3 && tagReads.withLock { $0 } == 1)
        #expect(values.all.count == 1)
    }

    @Test("a DELETE without WHERE (SQLite's truncate optimisation) is seen")
    func deleteEverything() async throws {
        // Given
        let database = try open()
        await Self.insert("1", "first", into: database)
        let (values, handle) = observe(database)
        #expect(await values.next() == ["first"])
        // When
        _ = await PromiseExpectations.value(of: database.write { try $0.execute("DELETE FROM notes") })
        // Then
        #expect(await values.next() == [])
        handle.cancel()
    }

    @Test(
        "a commit made through another connection to the file (as another process makes it) is delivered once"
    )
    func writesFromAnotherConnection() async throws {
        // Given
        let database = try open()
        let other = try open()
        let (values, handle) = observe(database)
        #expect(await values.next() == [])
        // When
        await Self.insert("1", "from elsewhere", into: other)
        // Then
        #expect(await values.next() == ["from elsewhere"])
        await Self.insert("2", "again", into: other)
        #expect(await values.next() == ["from elsewhere", "again"])
        #expect(values.all.count == 3)
        handle.cancel()
    }

    @Test("a read that throws delivers the error and the observation goes on")
    func errorKeepsObserving() async throws {
        // Given: a read that fails while a note says so
        let database = try open()
        let results = DeliveryRecorder<String>()
        let handle = database.observe(tables: ["notes"], on: .inline) { connection -> [String] in
            let texts = try Self.texts(connection)
            if texts.contains("fail") { throw DatabaseError(kind: .typeMismatch, message: "unreadable") }
            return texts
        } onChange: { result in
            results.record((try? result.get().joined(separator: ",")) ?? "error")
        }
        #expect(await results.next() == "")
        // When: a failing read, then the value from before the failure again, then another
        await Self.insert("1", "fail", into: database)
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("DELETE FROM notes WHERE id = '1'") })
        await Self.insert("1", "fine", into: database)
        // Then: each delivered, the repeated value too (the observer last saw the error)
        #expect(await results.next() == "error")
        #expect(await results.next() == "")
        #expect(await results.next() == "fine")
        handle.cancel()
    }

    @Test(
        "cancelled or released, an observation delivers nothing more, stops looking for other writers, and never keeps the database open"
    )
    func cancellingFreesEverything() async throws {
        // Given
        var database: Database? = try open()
        weak let weakDatabase = database
        let (values, handle) = observe(try #require(database))
        #expect(await values.next() == [])
        let observers = try #require(database?.observers)
        #expect(observers.count == 1)
        // When: the database is dropped while observed, and the block that read the first value
        // (it runs with the database, and may still be returning from delivering it) has ended
        let queue = try #require(database?.queue)
        database = nil
        queue.sync {}
        // Then
        #expect(weakDatabase == nil)
        handle.cancel()
        #expect(observers.count == 0)
        #expect(!observers.isPolling)

        // Given: another database, observed by a handle that is released
        let second = try open("second.sqlite")
        var released: ObservationHandle? = observe(second).1
        #expect(second.observers.count == 1)
        // When
        released = nil
        // Then
        #expect(released == nil && second.observers.count == 0)
        let (after, handle2) = observe(second)
        await Self.insert("1", "later", into: second)
        #expect(await after.next(where: { $0 == ["later"] }) == ["later"])
        handle2.cancel()
    }

    @Test("the file deleted under an observation is reported once as an error, without a crash")
    func fileDeleted() async throws {
        // Given
        let database = try open()
        let results = DeliveryRecorder<String>()
        let handle = database.observe(tables: ["notes"], on: .inline, read: Self.texts) { result in
            switch result {
            case .success(let texts): results.record(texts.joined())
            case .failure(let error): results.record("\(error)")
            }
        }
        _ = await results.next()
        // When
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: database.path + suffix)
        }
        // Then
        let reported = await results.next()
        #expect(reported?.contains("deleted or replaced") == true)
        #expect(reported?.contains(database.path) == true)
        handle.cancel()
    }
}
