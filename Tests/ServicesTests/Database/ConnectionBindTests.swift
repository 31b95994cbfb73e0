import CSQLite
import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// The values a statement is given: one SQLite refuses to bind fails the statement.
@Suite("Connection: values bound to a statement")
struct ConnectionBindTests {
    @Test("a value SQLite refuses to bind (past its length limit) fails the statement, and nothing is stored")
    func refusedValueFailsTheStatement() async throws {
        // Given: a nullable column, and a connection whose length limit is 100 bytes
        let database = try Database.inMemory()
        _ = await PromiseExpectations.value(
            of: database.write { try $0.executeScript("CREATE TABLE bodies (body TEXT)") })
        let long = String(repeating: "a", count: 1_000)

        // When
        let error = await PromiseExpectations.error(
            of: database.write { connection in
                sqlite3_limit(connection.handle, SQLITE_LIMIT_LENGTH, 100)
                try connection.execute("INSERT INTO bodies (body) VALUES (?)", [.text(long)])
            })
        let stored = await PromiseExpectations.value(
            of: database.read { try $0.scalar("SELECT count(*) FROM bodies") })

        // Then: an error, not a NULL stored in the value's place
        #expect((error as? DatabaseError)?.message.contains("too big") == true)
        #expect(stored == .integer(0))
    }
}
