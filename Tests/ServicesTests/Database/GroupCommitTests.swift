import Dispatch
import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// Writes that arrive together share one commit; each still settles only once its own write is
/// durable, and one that fails takes nothing else with it.
@Suite("Database: group commit")
struct GroupCommitTests {
    let temporary = TemporaryFolder("GroupCommitTests")
    var file: URL { temporary.file("group.sqlite") }
    static let schema = Migration(version: 1, sql: "CREATE TABLE notes (text TEXT NOT NULL)")

    struct Refused: Error {}

    /// Holds the database's queue until `open()`: what is asked meanwhile arrives together.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        init(_ database: Database) {
            _ = database.read { [semaphore] _ in semaphore.wait() }
        }
        func open() { semaphore.signal() }
    }

    func insert(_ text: String, into database: Database) -> Promise<Void> {
        database.write { try $0.execute("INSERT INTO notes (text) VALUES (?)", [.text(text)]) }.asVoid()
    }

    func notes(in database: Database) async -> [String] {
        await PromiseExpectations.value(
            of: database.read {
                try $0.query("SELECT text FROM notes ORDER BY rowid") { try $0.string("text") }
            })
            ?? []
    }

    @Test("fifty writes that arrive together are one commit, and every one of them is kept")
    func writesArrivingTogetherShareOneCommit() async throws {
        // Given
        let database = try Database(at: file, migrations: [Self.schema])
        let gate = Gate(database)

        // When
        let writes = (0..<50).map { insert("note \($0)", into: database) }
        gate.open()
        for write in writes { _ = await PromiseExpectations.value(of: write) }

        // Then
        #expect(database.groups.withLock { $0.committed } == 1)
        #expect(await notes(in: database) == (0..<50).map { "note \($0)" })
    }

    @Test("each write settles only once its group is committed: another connection sees it then")
    func settlesAfterTheCommit() async throws {
        // Given
        let database = try Database(at: file, migrations: [Self.schema])
        let other = try Database(at: file, migrations: [Self.schema])
        let gate = Gate(database)

        // When: as each write settles, another connection to the file counts the notes
        let seen = (0..<10).map { index in
            insert("note \(index)", into: database).then(on: .inline) {
                other.read { try $0.scalar("SELECT count(*) FROM notes") }
            }
        }
        gate.open()

        // Then: every count already holds the whole group
        for count in seen { #expect(await PromiseExpectations.value(of: count) == .integer(10)) }
    }

    @Test("a write that throws in a group undoes its own changes only, and fails alone")
    func failingWriteLeavesItsGroup() async throws {
        // Given
        let database = try Database(at: file, migrations: [Self.schema])
        let gate = Gate(database)

        // When
        let first = insert("first", into: database)
        let refused = database.write { connection in
            try connection.execute("INSERT INTO notes (text) VALUES (?)", ["refused"])
            throw Refused()
        }
        let last = insert("last", into: database)
        gate.open()

        // Then
        #expect(await PromiseExpectations.error(of: refused) is Refused)
        #expect(await PromiseExpectations.value(of: first) != nil)
        #expect(await PromiseExpectations.value(of: last) != nil)
        #expect(await notes(in: database) == ["first", "last"])
        #expect(database.groups.withLock { $0.committed } == 1)
    }

    @Test("a write alone that throws keeps nothing of it")
    func failingWriteAlone() async throws {
        // Given
        let database = try Database(at: file, migrations: [Self.schema])

        // When
        let refused = database.write { connection in
            try connection.execute("INSERT INTO notes (text) VALUES (?)", ["refused"])
            throw Refused()
        }

        // Then
        #expect(await PromiseExpectations.error(of: refused) is Refused)
        #expect(await notes(in: database).isEmpty)
    }

    @Test("a read asked between two writes sees the first and not the second")
    func orderIsKept() async throws {
        // Given
        let database = try Database(at: file, migrations: [Self.schema])
        let gate = Gate(database)

        // When
        let before = insert("before", into: database)
        let count = database.read { try $0.scalar("SELECT count(*) FROM notes") }
        let after = insert("after", into: database)
        gate.open()

        // Then
        #expect(await PromiseExpectations.value(of: count) == .integer(1))
        _ = await PromiseExpectations.value(of: before)
        _ = await PromiseExpectations.value(of: after)
        #expect(await notes(in: database) == ["before", "after"])
    }

    @Test("each write counts once, alone or in a group, and a read counts none")
    func writesCounted() async throws {
        // Given
        let database = try Database(at: file, migrations: [Self.schema])
        let before = try #require(await PromiseExpectations.value(of: database.read { $0.work }))

        // When: one write alone, then two that arrive together, and a read
        _ = await PromiseExpectations.value(of: insert("alone", into: database))
        let gate = Gate(database)
        let (first, second) = (insert("first", into: database), insert("second", into: database))
        gate.open()
        _ = await PromiseExpectations.value(of: first)
        _ = await PromiseExpectations.value(of: second)
        _ = await notes(in: database)
        let after = try #require(await PromiseExpectations.value(of: database.read { $0.work }))

        // Then
        #expect(after.since(before).writes == 3)
    }

    @Test(
        "a commit that fails (a deferred foreign key) rejects its write, keeps nothing, and the next write goes"
    )
    func failedCommitRejects() async throws {
        // Given: an order that must name a customer, checked at the commit
        let schema = Migration(
            version: 1,
            sql: """
                CREATE TABLE customers (id TEXT PRIMARY KEY);
                CREATE TABLE orders (id TEXT PRIMARY KEY,
                    customer TEXT REFERENCES customers (id) DEFERRABLE INITIALLY DEFERRED);
                """)
        let database = try Database(at: file, migrations: [schema])

        // When: an order naming no customer, then one naming a customer made with it
        let refused = await PromiseExpectations.error(
            of: database.write { try $0.execute("INSERT INTO orders VALUES ('o1', 'nobody')") })
        let kept = await PromiseExpectations.value(
            of: database.write { connection in
                try connection.execute("INSERT INTO orders VALUES ('o2', 'c1')")
                return try connection.execute("INSERT INTO customers VALUES ('c1')")
            })

        // Then
        #expect((refused as? DatabaseError)?.kind == .constraint)
        #expect(kept == 1)
        let orders = await PromiseExpectations.value(
            of: database.read { try $0.query("SELECT id FROM orders") { try $0.string("id") } })
        #expect(orders == ["o2"])
        // And a write after that is committed too: the failed commit's transaction was ended
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("INSERT INTO customers VALUES ('c2')") })
        let customers = await PromiseExpectations.value(
            of: database.read { try $0.query("SELECT id FROM customers ORDER BY id") { try $0.string("id") } }
        )
        #expect(customers == ["c1", "c2"])
    }

    @Test(
        "a write whose error ends the whole transaction fails the group's writes before it, and the ones after it are kept"
    )
    func writeEndingTheTransaction() async throws {
        // Given: a note SQLite answers by rolling back the whole transaction, not the statement
        let ending = Migration(
            version: 2,
            sql: """
                CREATE TRIGGER ends_the_transaction BEFORE INSERT ON notes WHEN NEW.text = 'ends'
                BEGIN SELECT RAISE(ROLLBACK, 'this note ends the transaction'); END;
                """)
        let database = try Database(at: file, migrations: [Self.schema, ending])
        let gate = Gate(database)

        // When: two writes, the one that ends the transaction, two more, all in one group
        let before = ["first", "second"].map { insert($0, into: database) }
        let ends = insert("ends", into: database)
        let after = ["third", "fourth"].map { insert($0, into: database) }
        gate.open()

        // Then: the writes before it are told their transaction ended, the later ones are kept
        for write in before {
            let error = await PromiseExpectations.error(of: write) as? DatabaseError
            #expect(error?.message.contains("ended by another write's error") == true)
        }
        #expect((await PromiseExpectations.error(of: ends) as? DatabaseError)?.kind == .constraint)
        for write in after { #expect(await PromiseExpectations.value(of: write) != nil) }
        #expect(await notes(in: database) == ["third", "fourth"])
        #expect(database.groups.withLock { $0.committed } == 1)
    }

    @Test("a group whose every write fails is rolled back and not counted as committed")
    func groupOfFailuresNotCommitted() async throws {
        // Given
        let database = try Database(at: file, migrations: [Self.schema])
        let gate = Gate(database)

        // When: two writes arrive together and both throw
        let refused = (0..<2).map { index in
            database.write { connection -> Void in
                try connection.execute("INSERT INTO notes (text) VALUES (?)", [.text("refused \(index)")])
                throw Refused()
            }
        }
        gate.open()

        // Then
        for write in refused { #expect(await PromiseExpectations.error(of: write) is Refused) }
        #expect(await notes(in: database).isEmpty)
        #expect(database.groups.withLock { $0.committed } == 0)
    }
}
