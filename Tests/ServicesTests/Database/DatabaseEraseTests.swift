import Dispatch
import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// Deletions that leave no trace: the log is emptied after them, or the caller is told it was not.
@Suite("Database: erase")
struct DatabaseEraseTests {
    let temporary = TemporaryFolder("DatabaseEraseTests")
    static let schema = Migration(version: 1, sql: "CREATE TABLE notes (text TEXT NOT NULL)")

    @Test(
        "an erase while another connection reads an older snapshot is refused as busy; once it ended, it goes"
    )
    func eraseWhileAnotherConnectionReads() async throws {
        // Given: a note, and another connection to the file in a read transaction that began before the erase
        let file = temporary.file("erase.sqlite")
        let database = try Database(at: file, migrations: [Self.schema], busyTimeout: 0.1)
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("INSERT INTO notes VALUES ('secret')") })
        let reader = try Database(at: file, migrations: [Self.schema])
        let (began, beginning) = Guarantee<Void>.pending()
        let release = DispatchSemaphore(value: 0)
        let reading = reader.read { connection in
            try connection.executeScript("BEGIN")
            _ = try connection.scalar("SELECT count(*) FROM notes")
            beginning(())
            release.wait()
            try connection.executeScript("COMMIT")
        }
        _ = await PromiseExpectations.value(of: began)

        // When
        let refused = await PromiseExpectations.error(
            of: database.erase { try $0.execute("DELETE FROM notes") })
        release.signal()
        _ = await PromiseExpectations.value(of: reading)
        let again = await PromiseExpectations.value(
            of: database.erase { try $0.execute("DELETE FROM notes") })

        // Then: the log kept the erased pages the first time, and is empty once the reader ended
        #expect((refused as? DatabaseError)?.kind == .busy)
        #expect(again == 0)
        let log = try FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int
        #expect(log == 0)
    }
}
